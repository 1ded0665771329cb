// Builds the WHERE clause every analytics query starts from. The brand is part of the type, so an
// unscoped query cannot be written; every value is a bound parameter, never spliced into SQL.
import { chTime } from '../tracking/rows.ts';

export interface Filters {
  brandId: string;
  /** Inclusive bounds on collected_at (a bare date_to already reaches 23:59:59.999). */
  from?: Date;
  to?: Date;
  /** model_used values. */
  models?: string[];
  region?: string;
  /** A topic filter, resolved in Postgres to its prompts (possibly none). */
  promptIds?: string[];
}

export interface Where { sql: string; params: Record<string, unknown> }

const dayOf = (d: Date) => d.toISOString().slice(0, 10);

/**
 * WHERE for the fact tables (answer_entities, answer_citations, answers, shopping_cards).
 * `day` bounds let the primary key prune; `collected_at` bounds make timestamp ranges exact.
 * `time` names the timestamp column (shopping_cards calls it created_at).
 */
export function where(f: Filters, opts: { time?: string } = {}): Where {
  const time = opts.time ?? 'collected_at';
  const parts = ['brand_id = {brand:UUID}'];
  const params: Record<string, unknown> = { brand: f.brandId };
  if (f.from) {
    parts.push('day >= {dayFrom:Date}', `${time} >= {from:DateTime64(3, 'UTC')}`);
    Object.assign(params, { dayFrom: dayOf(f.from), from: chTime(f.from.toISOString()) });
  }
  if (f.to) {
    parts.push('day <= {dayTo:Date}', `${time} <= {to:DateTime64(3, 'UTC')}`);
    Object.assign(params, { dayTo: dayOf(f.to), to: chTime(f.to.toISOString()) });
  }
  if (f.models?.length) {
    parts.push('model IN {models:Array(String)}');
    params.models = f.models;
  }
  if (f.region) {
    parts.push('region = {region:String}');
    params.region = f.region;
  }
  if (f.promptIds) {
    // A topic without prompts matches nothing.
    if (!f.promptIds.length) parts.push('0');
    else {
      parts.push('prompt_id IN {prompts:Array(UUID)}');
      params.prompts = f.promptIds;
    }
  }
  return { sql: parts.join(' AND '), params };
}
