// A row's link that opens its detail view in place (an address of the app, followed without a
// page load), marked aria-current while that row is the one open.
import type { ComponentChildren } from 'preact';
import { followLink } from '../router.ts';

export function OpenLink(p: { href: string; open: boolean; children: ComponentChildren }) {
  return (
    <a href={p.href} onClick={followLink} aria-current={p.open ? 'true' : undefined}>
      {p.children}
    </a>
  );
}
