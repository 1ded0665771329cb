// The batch of a log forwarder (POST /api/mcp/crawler-logs?brand_id=ID, docs/api.md section 14):
// a JSON array of at most 1,000 entries, answered 202 {accepted, dropped}. Every entry is checked
// before any is stored: one bad entry refuses the whole batch with a 400 naming its index and field,
// so a forwarder that resends a corrected batch never stores the good half twice.
import { badRequest } from '../../errors.ts';
import type { Site } from '../sites.ts';
import { checkEntry, EntryError, type Hit, judgeEntry, latestTimestamp, type RawEntry } from './entry.ts';

export const MAX_BATCH_ENTRIES = 1000;

export interface BatchResult {
  hits: Hit[];
  dropped: number;
}

/** The batch's kept hits and how many entries were dropped; throws a 400 for a bad body or entry. */
export function judgeBatch(body: unknown, site: Site, now: Date): BatchResult {
  if (!Array.isArray(body)) throw badRequest('Request body must be a JSON array of log entries');
  if (body.length > MAX_BATCH_ENTRIES) {
    throw badRequest(`Request body accepts at most ${MAX_BATCH_ENTRIES} entries, got ${body.length}`);
  }
  const latest = latestTimestamp(now);
  const hits: Hit[] = [];
  body.forEach((raw, i) => {
    if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) {
      throw badRequest(`entries[${i}] must be a JSON object`);
    }
    let hit: Hit | undefined;
    try {
      hit = judgeEntry(checkEntry(raw as RawEntry, latest), site);
    } catch (err) {
      if (err instanceof EntryError) throw badRequest(`entries[${i}].${err.message}`);
      throw err;
    }
    if (hit) hits.push(hit);
  });
  return { hits, dropped: body.length - hits.length };
}
