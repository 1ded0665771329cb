// Pieces the competitors, citations and prompts pages and the overview share: a link into the app
// (the answers explorer) that navigates in place, the source categories in words and as a table,
// and a headline figure as a card that leads to its answers. Numbers
// are written as the API gives them; a missing one is a dash.
import type { ComponentChildren } from 'preact';
import { followLink } from '../router.ts';
import { figure } from '../format.ts';
import { BarLabel, DataTable } from '../components/data-table.tsx';
import type { CitationFigures } from './citation-figures.ts';
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

/**
 * The cited domains by source category (the citations operation's source_type_breakdown), as the
 * citations page and the overview's panel show it. `href`: where a category leads; the answers
 * operation has no category filter, so it is the answers at the page's filters.
 */
export function CategoryTable(p: { rows: CitationFigures['source_type_breakdown']; empty: string; href?: string }) {
  const max = Math.max(0, ...p.rows.map((r) => r.pct));
  return (
    <DataTable
      caption="Cited domains by category"
      csvName="citation-categories"
      rows={p.rows}
      rowKey={(r) => r.category}
      empty={p.empty}
      columns={[
        {
          key: 'category',
          label: 'Category',
          render: (r) => (
            <BarLabel value={r.pct} max={max}>
              {p.href ? <a href={p.href}>{categoryLabel(r.category)}</a> : categoryLabel(r.category)}
            </BarLabel>
          ),
          csv: (r) => categoryLabel(r.category),
        },
        { key: 'count', label: 'Domains', align: 'right' },
        { key: 'pct', label: 'Share of domains', align: 'right', render: (r) => percent(r.pct) },
      ]}
    />
  );
}

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
