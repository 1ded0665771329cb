// Pieces the competitors, citations and prompts pages share: a link into the app (the answers
// explorer) that navigates in place, the source categories in words, and a headline figure as a card that leads to its answers. Numbers
// are written as the API gives them; a missing one is a dash.
import type { ComponentChildren } from 'preact';
import { followLink } from '../router.ts';
import { figure } from '../format.ts';
import './figure-parts.css';

export function AppLink(p: { href: string; label?: string; children: ComponentChildren }) {
  return (
    <a href={p.href} onClick={followLink} aria-label={p.label}>
      {p.children}
    </a>
  );
}

const CATEGORIES: Record<string, string> = {
  you: 'Your site',
  competitor: 'Competitors',
  editorial: 'Editorial',
  forum: 'Forums',
  social: 'Social',
  review: 'Reviews',
  institutional: 'Institutions',
  other: 'Other',
};

export const categoryLabel = (c: string) => CATEGORIES[c] ?? c;

/** A percentage as the API gives it (already rounded), or a dash. */
export const percent = (v: number | null | undefined) => (v === null || v === undefined ? '—' : `${v}%`);

/** A headline figure: its name, its value, a line of context, and a link to the answers behind it. */
export function FigureCard(p: {
  title: string;
  value: number | null | undefined;
  unit?: string;
  note?: ComponentChildren;
  href?: string;
  linkText?: string;
}) {
  const shown = p.value === null || p.value === undefined ? '—' : `${figure(p.value)}${p.unit ?? ''}`;
  return (
    <section class="card" aria-label={p.title}>
      <h2>{p.title}</h2>
      <p class="value">{shown}</p>
      {p.note && <p class="card-note">{p.note}</p>}
      {p.href && (
        <p class="card-link">
          <AppLink href={p.href}>{p.linkText ?? 'See the answers'}</AppLink>
        </p>
      )}
    </section>
  );
}
