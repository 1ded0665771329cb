// Every signal of the rubric, evaluated on one page, in rubric order.
import { SIGNAL_KEYS } from '../rubric.ts';
import { authoritySignals } from './authority.ts';
import { contentSignals } from './content.ts';
import { crawlerSignals } from './crawlers.ts';
import { eeatSignals } from './eeat.ts';
import { schemaSignals } from './schema.ts';
import { structureSignals } from './structure.ts';
import { technicalSignals } from './technical.ts';
import type { AuditInput, Signal } from './types.ts';

export function evaluateSignals(input: AuditInput): Signal[] {
  const all = [
    ...crawlerSignals(input),
    ...technicalSignals(input),
    ...structureSignals(input),
    ...schemaSignals(input),
    ...contentSignals(input),
    ...authoritySignals(input),
    ...eeatSignals(input),
  ];
  const byKey = new Map(all.map((s) => [s.key, s]));
  // A rubric entry without an evaluator (or a duplicate) is a programming error: fail loudly.
  if (byKey.size !== all.length || byKey.size !== SIGNAL_KEYS.length) {
    throw new Error(
      `signals out of step with the rubric: ${all.length} evaluated, ${SIGNAL_KEYS.length} in the rubric`,
    );
  }
  return SIGNAL_KEYS.map((k) => byKey.get(k)!);
}

export type { Signal, SignalStatus, AuditInput } from './types.ts';
