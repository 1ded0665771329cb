// A table of the dashboard: a real <table> (caption, column headers with scope) and a "Download
// CSV" button that writes a header row and every row of the table at the page's filters, not only
// those on screen: `allRows()` fetches the whole list when the table shows a page of it.
import type { ComponentChildren } from 'preact';
import { useState } from 'preact/hooks';
import { type CsvValue, downloadText, toCsv } from '../csv.ts';
import { messageOf } from '../api.ts';

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
}

export interface DataTableProps<Row> {
  caption: string;
  /** Show the caption above the table (default: for screen readers only, the panel's heading says it). */
  showCaption?: boolean;
  columns: Column<Row>[];
  rows: Row[];
  /** The CSV file's name; without it the table has no download (e.g. a settings list). */
  csvName?: string;
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

export function DataTable<Row>(p: DataTableProps<Row>) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string>();
  const download = async () => {
    if (!p.csvName) return;
    setBusy(true);
    setError(undefined);
    try {
      const rows = p.allRows ? await p.allRows() : p.rows;
      downloadText(p.csvName, tableCsv(p.columns, rows));
    } catch (err) {
      setError(`The CSV could not be made: ${messageOf(err)}`);
    } finally {
      setBusy(false);
    }
  };
  if (!p.rows.length && p.empty !== undefined) return <p class="empty">{p.empty}</p>;
  const shown = p.columns.filter((c) => !c.csvOnly);
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
      <div class="table-scroll">
        <table>
          <caption class={p.showCaption ? 'table-caption' : 'sr-only'}>{p.caption}</caption>
          <thead>
            <tr>
              {shown.map((c) => (
                <th key={c.key} scope="col" class={c.align === 'right' ? 'num' : undefined}>
                  {c.hideLabel ? <span class="sr-only">{c.label}</span> : c.label}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {p.rows.map((row, i) => (
              <tr key={p.rowKey ? p.rowKey(row, i) : i}>
                {shown.map((c) => (
                  <td
                    key={c.key}
                    class={[c.align === 'right' ? 'num' : '', c.cellClass ?? ''].join(' ').trim() || undefined}
                  >
                    {cell(c, row)}
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
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
