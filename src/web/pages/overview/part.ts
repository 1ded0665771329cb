// What each part of the overview receives: the brand, the page's filters as the API's parameters
// (with brand_id), a key that changes when they do, the explorer's address for a figure, and how to
// say it has drawn.
import { useEffect } from 'preact/hooks';
import type { FilterParams } from '../../filters.ts';

export interface PartProps {
  brandId: string;
  params: FilterParams & { brand_id: string };
  paramsKey: string;
  /** The answers explorer at the page's filters plus the figure's own parameters. */
  link: (own?: Record<string, string | undefined>) => string;
  /** Tells the overview whether a part shows its figures (or its failure) for the current filters. */
  report: Report;
}

export type Report = (part: string, settled: boolean) => void;

/** Reports `settled` for `part` whenever it changes (see PartProps.report). */
export function useReport(report: Report, part: string, settled: boolean): void {
  useEffect(() => report(part, settled), [settled]);
}
