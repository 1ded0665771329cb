// The shape of a signal and small constructors that keep status and score consistent:
// pass = 1, fail = 0, warn strictly between, na = not evaluated (left out of every score).
import type { Category } from '../categories.ts';
import { RUBRIC, type SignalKey } from '../rubric.ts';
import type { Page } from '../page.ts';
import type { SiteFiles } from '../site.ts';

export type SignalStatus = 'pass' | 'warn' | 'fail' | 'na';

export interface Signal {
  key: SignalKey;
  category: Category;
  status: SignalStatus;
  /** 0-1; 0 for na (not counted). */
  score: number;
  /** What was seen, in words a marketer can check. */
  evidence: string;
}

/** Everything the signals read: the page, the site files, the fetch facts and the clock. */
export interface AuditInput {
  page: Page;
  site: SiteFiles;
  fetch: {
    requestedUrl: string;
    redirects: string[];
    firstByteMs: number;
    totalMs: number;
    bytes: number;
    headers: Record<string, string | string[] | undefined>;
  };
  now: Date;
  /** First-byte time that still scores 1 (AUDIT_FAST_MS). */
  fastMs: number;
}

const make = (key: SignalKey, status: SignalStatus, score: number, evidence: string): Signal => ({
  key,
  category: RUBRIC[key].category,
  status,
  score: Math.round(score * 100) / 100,
  evidence,
});

export const pass = (key: SignalKey, evidence: string) => make(key, 'pass', 1, evidence);
export const fail = (key: SignalKey, evidence: string) => make(key, 'fail', 0, evidence);
export const na = (key: SignalKey, evidence: string) => make(key, 'na', 0, evidence);
/** A partial result; the score is kept strictly between 0 and 1. */
export const warn = (key: SignalKey, score: number, evidence: string) =>
  make(key, 'warn', Math.min(0.9, Math.max(0.1, score)), evidence);

/** pass / warn / fail from a score: 1 passes, 0 fails, anything between warns. */
export const graded = (key: SignalKey, score: number, evidence: string): Signal =>
  score >= 1 ? pass(key, evidence) : score <= 0 ? fail(key, evidence) : warn(key, score, evidence);

/** `"text"` shortened for evidence. */
export function quote(text: string, max = 80): string {
  const t = text.replace(/\s+/g, ' ').trim();
  return `"${t.length > max ? `${t.slice(0, max - 1)}…` : t}"`;
}

export const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;
