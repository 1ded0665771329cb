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
  // A bound on a day boundary needs the day column only (which the rollups have too).
  if (f.from) {
    parts.push('day >= {dayFrom:Date}');
    params.dayFrom = dayOf(f.from);
    if (!f.from.toISOString().endsWith('T00:00:00.000Z')) {
      parts.push(`${time} >= {from:DateTime64(3, 'UTC')}`);
      params.from = chTime(f.from.toISOString());
    }
  }
  if (f.to) {
    parts.push('day <= {dayTo:Date}');
    params.dayTo = dayOf(f.to);
    if (!f.to.toISOString().endsWith('T23:59:59.999Z')) {
      parts.push(`${time} <= {to:DateTime64(3, 'UTC')}`);
      params.to = chTime(f.to.toISOString());
    }
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
