// One server-log entry (docs/api.md section 14): its fields checked, then judged. The batch endpoint
// and `answerscope crawler-logs import` both go through here, so a field is refused with the same
// message whichever way it arrives, and an entry is kept or dropped by the same rule.
//
// Checked by hand rather than by a schema: the import reads 50,000 entries a second and each check
// here is a comparison or two. A message names the field; the caller adds the entry's index or line.
import { DAY_MS, EARLIEST, parseIsoInstant } from '../../instant.ts';
import { APPEND_SCHEMAS } from '../../stores/fact-tables.ts';
import { FLOAT64, fitsColumn, type NumberColumn, rangeMessage, UINT16, UINT64, within } from '../../column-numbers.ts';
import { hostOnSite, type Site } from '../sites.ts';
import { type BotTable, botTable as defaultBots } from './bots.ts';
import { type Address, parseAddress, type RangeTable, rangeTable as defaultRanges } from './ranges.ts';

/** An entry as a log forwarder sends it (Profound's field names), before any check. */
export interface RawEntry {
  timestamp?: unknown;
  method?: unknown;
  host?: unknown;
  path?: unknown;
  status_code?: unknown;
  ip?: unknown;
  user_agent?: unknown;
  referer?: unknown;
  bytes_sent?: unknown;
  duration_ms?: unknown;
}

export interface Entry {
  /** Epoch milliseconds. */
  ms: number;
  method: string;
  host: string;
  /** Without its query string or fragment. */
  path: string;
  status: number;
  address: Address;
  userAgent: string;
  referer: string;
  bytesSent: number | null;
  durationMs: number | null;
}

export class EntryError extends Error {}

export const MAX_USER_AGENT = 2048;
export const MAX_PATH = 2048;
export const MAX_REFERER = 2048;
// A host name (letters, digits, hyphens, dots) with an optional port, or a bracketed IPv6 literal:
// nothing else (`evil.example@acme.example`, `acme.example/x`) is a host.
const HOST_RE = /^(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,62})(?:\.[A-Za-z0-9-]{1,63})*\.?|\[[0-9A-Fa-f:.]+\])(?::\d{1,5})?$/;
const METHOD_RE = /^[A-Za-z]{1,16}$/;

const isString = (v: unknown): v is string => typeof v === 'string';
const absent = (v: unknown) => v === undefined || v === null || v === '' || v === '-';
const fail = (message: string): never => {
  throw new EntryError(message);
};

function text(v: unknown, name: string, max: number): string {
  if (v === undefined || v === null) return fail(`${name} is required`);
  if (!isString(v)) return fail(`${name} must be a string`);
  if (v.length > max) return fail(`${name} must be at most ${max} characters`);
  return v;
}

// The ai_crawler_hits columns each number lands in (clickhouse/014_ai_crawlers.sql), narrowed by
// what the field means. A JSON number, never a numeric string: the documented types are numbers.
const STATUS = within(UINT16, 100, 599);
const BYTES_SENT = UINT64;
const DURATION_MS = within(FLOAT64, 0);

function number(v: unknown, name: string, column: NumberColumn): number {
  return fitsColumn(v, column) ? v : fail(`${name} ${rangeMessage(column)}`);
}

const optionalNumber = (v: unknown, name: string, column: NumberColumn): number | null =>
  absent(v) ? null : number(v, name, column);

/**
 * The entry's fields, checked; throws an EntryError naming the first bad field. `latest`: the last
 * instant a timestamp may name (one day after now, as for ingested answers, docs/api.md section 9).
 */
export function checkEntry(raw: RawEntry, latest: number): Entry {
  const ts = text(raw.timestamp, 'timestamp', 40);
  const instant = parseIsoInstant(ts);
  if (!instant || instant.bare) fail('timestamp must be an ISO 8601 timestamp with a time and zone');
  const ms = instant!.ms;
  if (ms < EARLIEST || ms > latest) fail('timestamp must be from 2000-01-01 to one day after now');
  const method = text(raw.method, 'method', 16);
  if (!METHOD_RE.test(method)) fail('method must be an HTTP method');
  const host = text(raw.host, 'host', 260);
  if (!HOST_RE.test(host)) fail('host must be a host name');
  const fullPath = text(raw.path, 'path', MAX_PATH);
  if (!fullPath.startsWith('/')) fail('path must start with /');
  if (raw.status_code === undefined || raw.status_code === null) fail('status_code is required');
  const status = number(raw.status_code, 'status_code', STATUS);
  const ip = text(raw.ip, 'ip', 64);
  const address = parseAddress(ip);
  if (!address) fail('ip must be an IPv4 or IPv6 address');
  const userAgent = text(raw.user_agent, 'user_agent', MAX_USER_AGENT);
  let referer = '';
  if (!absent(raw.referer)) referer = text(raw.referer, 'referer', MAX_REFERER);
  const cut = fullPath.search(/[?#]/);
  return {
    ms,
    method: method.toUpperCase(),
    host: host.toLowerCase(),
    path: cut < 0 ? fullPath : fullPath.slice(0, cut),
    status,
    address: address!,
    userAgent,
    referer,
    bytesSent: optionalNumber(raw.bytes_sent, 'bytes_sent', BYTES_SENT),
    durationMs: optionalNumber(raw.duration_ms, 'duration_ms', DURATION_MS),
  };
}

/** The host without its port (a bracketed IPv6 literal keeps its brackets, and matches no domain). */
function hostName(host: string): string {
  const colon = host.lastIndexOf(':');
  return colon > host.lastIndexOf(']') ? host.slice(0, colon) : host;
}

/** The latest timestamp an entry may carry when checked at `now`. */
export const latestTimestamp = (now: Date) => now.getTime() + DAY_MS;

/** A kept hit as stored in ai_crawler_hits (clickhouse/014_ai_crawlers.sql); the address is not in it. */
export interface Hit {
  brand_id: string;
  ts: string;
  day: string;
  bot_name: string;
  provider: string;
  bot_type: string;
  verification: string;
  method: string;
  host: string;
  path: string;
  status_code: number;
  status_class: string;
  referer: string;
  bytes_sent: number | null;
  duration_ms: number | null;
}

/** ai_crawler_hits's columns in their stored order, as src/stores/fact-tables.ts declares them. */
export type HitColumn = keyof typeof APPEND_SCHEMAS.ai_crawler_hits;
export const HIT_COLUMNS = Object.keys(APPEND_SCHEMAS.ai_crawler_hits) as HitColumn[];
// A Hit has exactly the table's columns: a column added to one and not the other fails the type check.
export const HIT_FIELDS_ARE_COLUMNS: [HitColumn, keyof Hit] extends [keyof Hit, HitColumn] ? true : never = true;

export interface Judge {
  bots?: BotTable;
  ranges?: RangeTable;
}

/**
 * The hit an entry makes for the brand's site, or undefined when it is dropped: its user agent is
 * no known AI crawler or agent, or its host is not one of the brand's domains or a sub-domain of
 * one (the rule of /api/collect, docs/api.md section 9).
 */
export function judgeEntry(entry: Entry, site: Site, judge: Judge = {}): Hit | undefined {
  const bot = (judge.bots ?? defaultBots).classify(entry.userAgent);
  if (!bot) return undefined;
  if (!hostOnSite(hostName(entry.host), site)) return undefined;
  const iso = new Date(entry.ms).toISOString();
  return {
    brand_id: site.brandId,
    ts: iso.slice(0, 23).replace('T', ' '),
    day: iso.slice(0, 10),
    bot_name: bot.name,
    provider: bot.provider,
    bot_type: bot.bot_type,
    verification: (judge.ranges ?? defaultRanges).verify(bot.name, entry.address),
    method: entry.method,
    host: entry.host,
    path: entry.path,
    status_code: entry.status,
    status_class: `${Math.floor(entry.status / 100)}xx`,
    referer: entry.referer,
    bytes_sent: entry.bytesSent,
    duration_ms: entry.durationMs,
  };
}
