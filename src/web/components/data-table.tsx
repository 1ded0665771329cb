// A table of the dashboard: a real <table> (caption, column headers with scope) and a "Download
// CSV" button that writes a header row and every row of the table at the page's filters, not only
// those on screen: `allRows()` fetches the whole list when the table shows a page of it. Every
// column with a value sorts by a click on its header (the order announced with aria-sort; a table
// showing a page of a list sorts that page), and a column of numbers writes them with one count
// of decimals (table-order.ts). A table wider than the screen scrolls inside its own region.
import type { ComponentChildren } from 'preact';
import { useState } from 'preact/hooks';
import { type CsvValue, downloadText, toCsv } from '../csv.ts';
import { messageOf } from '../api.ts';
import { useApp } from '../context.ts';
import { filtersOf } from '../filters.ts';
import { useLocation } from '../router.ts';
import { decimalsOf, type Direction, padDecimals, type SortValue, sortRows } from './table-order.ts';

export interface Column<Row> {
  key: string;
  label: string;
  align?: 'right';
  /** The cell; by default the row's value under `key`. */
  render?: (row: Row) => ComponentChildren;
  /** The CSV value; by default the row's value under `key` (objects are left empty). */
  csv?: (row: Row) => CsvValue;
  /** Left out of the CSV (e.g. a column of buttons). */
  noCsv?: boolean;
  /** The header text is for screen readers only (e.g. an actions column). */
  hideLabel?: boolean;
  /** In the CSV only (a figure the screen shows inside another cell). */
  csvOnly?: boolean;
  /** A class for the column's cells (e.g. `actions-cell`). */
  cellClass?: string;
  /** What the column sorts by; by default its CSV value. */
  sort?: (row: Row) => SortValue;
  /** Not sortable (a column of buttons is not, nor one without a value). */
  noSort?: boolean;
}

export interface DataTableProps<Row> {
  caption: string;
  /** Show the caption above the table (default: for screen readers only, the panel's heading says it). */
  showCaption?: boolean;
  columns: Column<Row>[];
  rows: Row[];
  /**
   * What the table is, for the CSV file's name (`competitors`); the file is named by brand, table
   * and dates (csvFileName). Without it the table has no download (e.g. a settings list).
   */
  csvName?: string;
  /** The table does not depend on the page's dates (a list of audits): its file name has none. */
  undated?: boolean;
  /** Every row at the page's filters, for the CSV, when `rows` is only what is on screen. */
  allRows?: () => Promise<Row[]>;
  empty?: ComponentChildren;
  /** A stable key per row (default: its index). */
  rowKey?: (row: Row, index: number) => string;
  class?: string;
}

const fieldOfRow = (row: unknown, key: string): unknown => (row as Record<string, unknown>)[key];

function csvValue<Row>(c: Column<Row>, row: Row): CsvValue {
  if (c.csv) return c.csv(row);
  const v = fieldOfRow(row, c.key);
  return v === null || v === undefined || typeof v === 'object' ? null : (v as CsvValue);
}

function cell<Row>(c: Column<Row>, row: Row): ComponentChildren {
  if (c.render) return c.render(row);
  const v = fieldOfRow(row, c.key);
  return v === null || v === undefined ? '—' : String(v);
}

export function tableCsv<Row>(columns: Column<Row>[], rows: Row[]): string {
  const cols = columns.filter((c) => !c.noCsv);
  return toCsv(
    cols.map((c) => c.label),
    rows.map((r) => cols.map((c) => csvValue(c, r))),
  );
}

const sortValue = <Row,>(c: Column<Row>, row: Row): SortValue => (c.sort ? c.sort(row) : csvValue(c, row));
/** A column sorts when it has a value to sort by (a column of buttons has none). */
const sortable = <Row,>(c: Column<Row>, rows: Row[]) =>
  !c.noSort &&
  !c.hideLabel &&
  rows.some((r) => {
    const v = sortValue(c, r);
    return v !== null && v !== undefined && v !== '';
  });

/** A header's label, as a button that sorts by the column (its mark is drawn by CSS, not text). */
function SortButton<Row>(p: { column: Column<Row>; onSort: () => void }) {
  return (
    <button type="button" class="sort-button" onClick={p.onSort}>
      {p.column.hideLabel ? <span class="sr-only">{p.column.label}</span> : p.column.label}
    </button>
  );
}

/**
 * A CSV file's name says the brand, the table and the dates it holds:
 * `trailpeak-competitors-2026-10-29-to-2026-11-27.csv` (the dates are the page's filters, UTC days).
 */
export function csvFileName(brandSlug: string | undefined, table: string, dates?: { from: string; to: string }) {
  const parts = [brandSlug, table.replace(/\.csv$/, ''), dates && `${dates.from}-to-${dates.to}`];
  return `${parts.filter(Boolean).join('-')}.csv`;
}

export function DataTable<Row>(p: DataTableProps<Row>) {
  const { brand } = useApp();
  const { path, query } = useLocation();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string>();
  const [order, setOrder] = useState<{ key: string; direction: Direction }>();
  const download = async () => {
    if (!p.csvName) return;
    setBusy(true);
    setError(undefined);
    try {
      const rows = p.allRows ? await p.allRows() : p.rows;
      const onBrand = path.startsWith('/app/brands/');
      const f = filtersOf(query);
      const dates = onBrand && !p.undated ? { from: f.date_from, to: f.date_to } : undefined;
      downloadText(csvFileName(onBrand ? brand?.slug : undefined, p.csvName, dates), tableCsv(p.columns, rows));
    } catch (err) {
      setError(`The CSV could not be made: ${messageOf(err)}`);
    } finally {
      setBusy(false);
    }
  };
  if (!p.rows.length && p.empty !== undefined) return <p class="empty">{p.empty}</p>;
  const shown = p.columns.filter((c) => !c.csvOnly);
  const sortedBy = order && shown.find((c) => c.key === order.key);
  const rows = sortedBy && order ? sortRows(p.rows, (r) => sortValue(sortedBy, r), order.direction) : p.rows;
  const sortBy = (c: Column<Row>) => {
    // Numbers first from the largest, text from A; a second click turns the order round.
    const first: Direction = c.align === 'right' ? 'descending' : 'ascending';
    const again = order?.key === c.key;
    setOrder({
      key: c.key,
      direction: again ? (order.direction === 'ascending' ? 'descending' : 'ascending') : first,
    });
  };
  // The cells drawn once, and for each column of numbers the most decimals any of its figures has.
  const cells = rows.map((row) => shown.map((c) => cell(c, row)));
  const decimals = shown.map((c, j) =>
    c.align === 'right' ? Math.max(0, ...cells.map((r) => decimalsOf(r[j]) ?? 0)) : 0,
  );
  return (
    <div class={`data-table${p.class ? ` ${p.class}` : ''}`}>
      {p.csvName && (
        <div class="table-tools">
          <button
            type="button"
            class="link"
            onClick={download}
            disabled={busy}
            aria-label={`Download CSV: ${p.caption}`}
          >
            {busy ? 'Preparing CSV…' : 'Download CSV'}
          </button>
          {error && (
            <span class="field-error" role="alert">
              {error}
            </span>
          )}
        </div>
      )}
      {/* Focusable and named, so a keyboard can scroll a table wider than a phone (WCAG 2.1.1). */}
      {/* biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region must take focus to scroll by keys */}
      <section class="table-scroll" tabIndex={0} aria-label={p.caption}>
        <table>
          <caption class={p.showCaption ? 'table-caption' : 'sr-only'}>{p.caption}</caption>
          <thead>
            <tr>
              {shown.map((c) => (
                <th
                  key={c.key}
                  scope="col"
                  class={c.align === 'right' ? 'num' : undefined}
                  aria-sort={order?.key === c.key ? order.direction : undefined}
                >
                  {sortable(c, p.rows) ? (
                    <SortButton column={c} onSort={() => sortBy(c)} />
                  ) : c.hideLabel ? (
                    <span class="sr-only">{c.label}</span>
                  ) : (
                    c.label
                  )}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {rows.map((row, i) => (
              <tr key={p.rowKey ? p.rowKey(row, p.rows.indexOf(row)) : p.rows.indexOf(row)}>
                {shown.map((c, j) => (
                  <td
                    key={c.key}
                    class={[c.align === 'right' ? 'num' : '', c.cellClass ?? ''].join(' ').trim() || undefined}
                  >
                    {decimals[j] > 0 ? padDecimals(cells[i][j], decimals[j]) : cells[i][j]}
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </section>
    </div>
  );
}

/**
 * A list bar, as Plausible and Umami draw them: the label over a bar whose length is the value's
 * share of the largest. Purely visual; the number beside it is the figure.
 */
export function BarLabel(p: { value: number; max: number; children: ComponentChildren }) {
  const pct = p.max > 0 ? Math.max(0, Math.min(100, (100 * p.value) / p.max)) : 0;
  return (
    <span class="bar-label">
      <span class="bar" style={{ width: `${pct}%` }} aria-hidden="true" />
      <span class="bar-text">{p.children}</span>
    </span>
  );
}
