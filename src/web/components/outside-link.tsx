// A URL from outside (a citation, an audited page, a merchant): a link only when it is http(s),
// opened without a referrer or a handle on this window; anything else is shown as plain text.
import type { ComponentChildren } from 'preact';

export const isWebUrl = (url: string | null | undefined): url is string => !!url && /^https?:\/\//i.test(url);

export function OutsideLink(p: { url: string | null | undefined; children?: ComponentChildren }) {
  const label = p.children ?? p.url ?? '';
  return isWebUrl(p.url) ? (
    <a href={p.url} rel="noopener noreferrer nofollow" target="_blank">
      {label}
    </a>
  ) : (
    <span>{label}</span>
  );
}
