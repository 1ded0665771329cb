// What every table does to its columns once, so no page does it again: the order a header click
// asks for (numbers by value, text in English collation, empty cells last whichever the direction)
// and one count of decimals per column of numbers, as the API gave them: 12.5 beside 3.25 is
// written 12.50, a zero added, never a digit taken away (the app rounds nothing of its own).
import { cloneElement, isValidElement, type ComponentChildren, type VNode } from 'preact';

export type SortValue = string | number | boolean | null | undefined;
export type Direction = 'ascending' | 'descending';

const collator = new Intl.Collator('en', { numeric: true, sensitivity: 'base' });

export function compareValues(a: SortValue, b: SortValue, direction: Direction): number {
  const emptyA = a === null || a === undefined || a === '';
  const emptyB = b === null || b === undefined || b === '';
  if (emptyA || emptyB) return emptyA === emptyB ? 0 : emptyA ? 1 : -1;
  const sign = direction === 'ascending' ? 1 : -1;
  if (typeof a === 'number' && typeof b === 'number') return sign * (a - b);
  return sign * collator.compare(String(a), String(b));
}

/** Rows in the order of one column, stable (equal values keep the API's order). */
export function sortRows<Row>(rows: Row[], value: (row: Row) => SortValue, direction: Direction): Row[] {
  return rows
    .map((row, i) => ({ row, i, v: value(row) }))
    .sort((x, y) => compareValues(x.v, y.v, direction) || x.i - y.i)
    .map((x) => x.row);
}

// The first number of a cell's text is its figure (a share "12.5%", a count "(120)" after it is not).
const NUMBER = /-?\d+(?:\.(\d+))?/;

function firstText(node: ComponentChildren): string | undefined {
  if (node === null || node === undefined || typeof node === 'boolean') return undefined;
  if (typeof node === 'string' || typeof node === 'number') return NUMBER.test(String(node)) ? String(node) : undefined;
  if (Array.isArray(node)) {
    for (const n of node) {
      const t = firstText(n);
      if (t !== undefined) return t;
    }
    return undefined;
  }
  if (isValidElement(node)) return firstText((node as VNode<{ children?: ComponentChildren }>).props.children);
  return undefined;
}

/** How many decimals the cell's figure has; undefined when it shows no number. */
export function decimalsOf(cell: ComponentChildren): number | undefined {
  const text = firstText(cell);
  if (text === undefined) return undefined;
  return NUMBER.exec(text)?.[1]?.length ?? 0;
}

function padText(text: string, decimals: number): string {
  return text.replace(NUMBER, (n, frac: string | undefined) => {
    const have = frac?.length ?? 0;
    if (have >= decimals) return n;
    return `${n}${have ? '' : '.'}${'0'.repeat(decimals - have)}`;
  });
}

/** The cell with its figure written to `decimals` places (zeros added); everything else as it was. */
export function padDecimals(cell: ComponentChildren, decimals: number): ComponentChildren {
  let done = false;
  const walk = (node: ComponentChildren): ComponentChildren => {
    if (done || node === null || node === undefined || typeof node === 'boolean') return node;
    if (typeof node === 'string' || typeof node === 'number') {
      if (!NUMBER.test(String(node))) return node;
      done = true;
      return padText(String(node), decimals);
    }
    if (Array.isArray(node)) return node.map(walk);
    if (isValidElement(node)) {
      const children = (node as VNode<{ children?: ComponentChildren }>).props.children;
      const next = walk(children);
      return next === children ? node : cloneElement(node, {}, next);
    }
    return node;
  };
  return walk(cell);
}
