// `answerscope import-tracker FILE --brand ID --format NAME [--map field=column,...]` (docs/metrics.md
// "Agreement with another tracker"): another tool's answer export, CSV or JSON Lines, read through a
// column mapping. Each readable line becomes an answer stored with `source` = NAME (kept out of the
// figures unless a read asks for that source: its analysis rows go to IMPORTED_GENERATION, which
// only such a read binds, and the reads of stored answers take the default sources otherwise),
// analysed by Answerscope, and its two readings (the tool's, ours) kept
// side by side for the agreement report (tracker-readings.ts).
//
// Presets: none. A preset would map a named tool's documented export columns; no tool's export
// columns were found publicly documented (searched 2026-11-28: trackers' pages describe their
// fields in prose, not their export's column names), so every format is mapped with --map.
import path from 'node:path';
import { parse as parseCsv } from 'csv-parse/sync';
import { UserError } from '../../errors.ts';
import type { Stores } from '../../stores/index.ts';
import { brandPrompts } from '../../tenancy/prompts.ts';
import type { BrandRecord } from '../../tenancy/brands.ts';
import { PLATFORMS, type Platform } from '../../tenancy/tracked.ts';
import { analyzeAnswer } from '../analysis/analyze.ts';
import type { Polarity } from '../analysis/sentiment/entity-sentiment.ts';
import { DEFAULT_SOURCES, SOURCE_SLUG } from '../types.ts';
import { IMPORTED_GENERATION } from '../../stores/generations.ts';
import { IngestCache, ingestBatch, type Lookups } from './batch.ts';
import { validateAnswer, type ValidAnswer } from './answer-schema.ts';
import { uuidV5 } from './ids.ts';
import { withIngestLock } from './lock.ts';
import { saveReadings, type Readings, type TrackerReading } from './tracker-readings.ts';

/** The fields a mapping may name; the first four every line needs. */
export const TRACKER_FIELDS = [
  'text',
  'platform',
  'date',
  'prompt',
  'mentioned',
  'position',
  'sentiment',
  'cited',
] as const;
export type TrackerField = (typeof TRACKER_FIELDS)[number];
const REQUIRED: readonly TrackerField[] = ['text', 'platform', 'date', 'prompt'];

const BATCH = 1000;

export interface ImportOptions {
  /** The file's text, and its name (its extension tells CSV from JSON Lines). */
  body: string;
  fileName: string;
  brand: BrandRecord;
  format: string;
  /**
   * field=column pairs, as --map gives them, or the same as an object (the app's form); a field not
   * mapped is read from the column of its name.
   */
  map?: string | Partial<Record<string, string>>;
}

/**
 * An import refused before anything is stored, with the input it is about (`format`, `file`, or
 * `map.<field>`), so the app shows it beside that field.
 */
export class ImportRefused extends UserError {
  constructor(
    message: string,
    readonly field: string,
  ) {
    super(message);
  }
}

export interface ImportResult {
  source: string;
  lines: number;
  imported: number;
  /** Lines that could not be read, each with its number (1 = the first line of the file) and why. */
  unreadable: { line: number; reason: string }[];
}

/** The mapping of --map, every field it names known. */
export function parseMapping(map: ImportOptions['map']): Partial<Record<TrackerField, string>> {
  const out: Partial<Record<TrackerField, string>> = {};
  const pairs: [string, string | undefined][] =
    typeof map === 'object'
      ? Object.entries(map)
      : (map ?? '')
          .split(',')
          .filter((p) => p.trim())
          .map((pair) => {
            const at = pair.indexOf('=');
            if (at < 1 || !pair.slice(at + 1).trim()) {
              throw new ImportRefused(`--map takes field=column pairs, got ${JSON.stringify(pair)}`, 'map');
            }
            return [pair.slice(0, at), pair.slice(at + 1)];
          });
  for (const [name, value] of pairs) {
    const field = name.trim() as TrackerField;
    const column = value?.trim();
    if (!column) continue;
    if (!TRACKER_FIELDS.includes(field)) {
      throw new ImportRefused(
        `--map: unknown field ${JSON.stringify(field)}; fields: ${TRACKER_FIELDS.join(', ')}`,
        'map',
      );
    }
    out[field] = column;
  }
  return out;
}

/** The file's records with their line numbers, and every column any of them has. */
function readRecords(
  body: string,
  fileName: string,
): {
  records: { line: number; values: Record<string, unknown> }[];
  columns: Set<string>;
  unreadable: ImportResult['unreadable'];
} {
  const ext = path.extname(fileName).toLowerCase();
  const jsonLines = ext === '.jsonl' || ext === '.ndjson' || (ext !== '.csv' && body.trimStart().startsWith('{'));
  const unreadable: ImportResult['unreadable'] = [];
  const columns = new Set<string>();
  const records: { line: number; values: Record<string, unknown> }[] = [];
  if (jsonLines) {
    body.split('\n').forEach((text, i) => {
      if (!text.trim()) return;
      try {
        const v = JSON.parse(text);
        if (typeof v !== 'object' || v === null || Array.isArray(v)) throw new Error('not a JSON object');
        for (const k of Object.keys(v)) columns.add(k);
        records.push({ line: i + 1, values: v });
      } catch (err) {
        unreadable.push({ line: i + 1, reason: `not a JSON object: ${(err as Error).message}` });
      }
    });
    return { records, columns, unreadable };
  }
  const rows = parseCsv(body, {
    columns: (header: string[]) => {
      for (const h of header) columns.add(h.trim());
      return header.map((h) => h.trim());
    },
    bom: true,
    info: true,
    skip_empty_lines: true,
    relax_column_count: true,
    skip_records_with_error: true,
    on_skip: (err: { message: string; lines?: number } | undefined) => {
      if (err) unreadable.push({ line: err.lines ?? 0, reason: err.message });
    },
  }) as { record: Record<string, string>; info: { lines: number } }[];
  for (const { record, info } of rows) records.push({ line: info.lines, values: record });
  return { records, columns, unreadable };
}

const PLATFORM_ALIASES: Record<string, Platform> = {
  openai: 'chatgpt',
  chat_gpt: 'chatgpt',
  google_ai_overview: 'google_ai_overviews',
  ai_overview: 'google_ai_overviews',
  ai_overviews: 'google_ai_overviews',
  ai_mode: 'google_ai_mode',
  microsoft_copilot: 'copilot',
  bing_copilot: 'copilot',
};

function platformOf(v: string): Platform | undefined {
  const slug = v
    .trim()
    .toLowerCase()
    .replace(/[\s-]+/g, '_');
  const p = PLATFORM_ALIASES[slug] ?? slug;
  return (PLATFORMS as readonly string[]).includes(p) ? (p as Platform) : undefined;
}

const YES = new Set(['true', 'yes', '1']);
const NO = new Set(['false', 'no', '0']);

/** A yes/no reading (true/false, yes/no, 1/0, any case); null when empty; an Error when neither. */
function yesNo(v: unknown, field: string): boolean | null | Error {
  if (v === undefined || v === null || v === '') return null;
  if (typeof v === 'boolean') return v;
  const s = String(v).trim().toLowerCase();
  if (YES.has(s)) return true;
  if (NO.has(s)) return false;
  return new Error(`${field} must be true/false, yes/no or 1/0, got ${JSON.stringify(v)}`);
}

function positionOf(v: unknown): number | null | Error {
  if (v === undefined || v === null || v === '') return null;
  const n = Number(v);
  if (!Number.isInteger(n) || n < 0 || n > 65_535) {
    return new Error(`position must be a whole number (0 or empty: not named), got ${JSON.stringify(v)}`);
  }
  return n === 0 ? null : n;
}

function sentimentOf(v: unknown): Polarity | null | Error {
  if (v === undefined || v === null || v === '') return null;
  const s = String(v).trim().toLowerCase();
  if (s === 'positive' || s === 'neutral' || s === 'negative') return s;
  return new Error(`sentiment must be positive, neutral or negative, got ${JSON.stringify(v)}`);
}

/** A day or an ISO timestamp, as an instant. */
function dateOf(v: unknown): string | undefined {
  const s = String(v ?? '').trim();
  const ms = /^\d{4}-\d{2}-\d{2}$/.test(s) ? Date.parse(`${s}T00:00:00.000Z`) : Date.parse(s);
  return Number.isFinite(ms) && /^\d{4}-\d{2}-\d{2}/.test(s) ? new Date(ms).toISOString() : undefined;
}

/** The import cache, but every prompt's rows go to IMPORTED_GENERATION. */
function outsideFigures(cache: IngestCache): Lookups {
  return {
    resolvePrompts: (ids) => cache.resolvePrompts(ids),
    prompt: (id) => {
      const p = cache.prompt(id);
      return p ? { ...p, generation: IMPORTED_GENERATION } : p;
    },
    compiled: (brandId) => cache.compiled(brandId),
    compiledNow: (brandId) => cache.compiledNow(brandId),
  };
}

export async function importTracker(stores: Stores, opts: ImportOptions): Promise<ImportResult> {
  const source = opts.format;
  if (!SOURCE_SLUG.test(source) || (DEFAULT_SOURCES as readonly string[]).includes(source)) {
    throw new ImportRefused(
      '--format must be a lower-case slug naming the tool (letters, digits, -), not capture or import; ' +
        `got ${JSON.stringify(source)}`,
      'format',
    );
  }
  const mapping = parseMapping(opts.map);
  const { records, columns, unreadable } = readRecords(opts.body, opts.fileName);
  // A mapped column the file does not have: refused before anything is stored, naming it.
  const columnOf = (f: TrackerField) => mapping[f] ?? f;
  for (const f of TRACKER_FIELDS) {
    const column = columnOf(f);
    const needed = REQUIRED.includes(f) || mapping[f] !== undefined;
    if (needed && !columns.has(column)) {
      throw new ImportRefused(
        `The file has no column ${JSON.stringify(column)} (field ${f}); nothing was imported`,
        `map.${f}`,
      );
    }
  }
  const read = TRACKER_FIELDS.filter((f) => columns.has(columnOf(f)));

  const prompts = new Map((await brandPrompts(stores.pg, opts.brand.id)).map((p) => [p.text.trim().toLowerCase(), p]));
  const cache = new IngestCache(stores);
  const compiled = await cache.compiled(opts.brand.id);
  const answers: ValidAnswer[] = [];
  const readings: TrackerReading[] = [];
  const lines = records.length + unreadable.length;
  for (const { line, values } of records) {
    const get = (f: TrackerField) => (read.includes(f) ? values[columnOf(f)] : undefined);
    const fail = (reason: string) => unreadable.push({ line, reason });
    const text = String(get('text') ?? '').trim();
    if (!text) {
      fail('text is empty');
      continue;
    }
    const platform = platformOf(String(get('platform') ?? ''));
    if (!platform) {
      fail(`platform must be one of ${PLATFORMS.join(', ')}, got ${JSON.stringify(get('platform') ?? '')}`);
      continue;
    }
    const collectedAt = dateOf(get('date'));
    if (!collectedAt) {
      fail(`date must be a date (YYYY-MM-DD) or an ISO 8601 timestamp, got ${JSON.stringify(get('date') ?? '')}`);
      continue;
    }
    const promptText = String(get('prompt') ?? '').trim();
    const prompt = prompts.get(promptText.toLowerCase());
    if (!prompt) {
      fail(`prompt ${JSON.stringify(promptText)} is not one of the brand's prompts`);
      continue;
    }
    const tool = {
      mentioned: yesNo(get('mentioned'), 'mentioned'),
      position: positionOf(get('position')),
      sentiment: sentimentOf(get('sentiment')),
      cited: yesNo(get('cited'), 'cited'),
    };
    const bad = Object.values(tool).find((v) => v instanceof Error);
    if (bad) {
      fail((bad as Error).message);
      continue;
    }
    const id = uuidV5(`tracker|${source}|${opts.brand.id}|${prompt.id}|${platform}|${collectedAt}|${text}`);
    const checked = validateAnswer({
      id,
      prompt_id: prompt.id,
      platform,
      model: 'unknown',
      region: opts.brand.region || 'US',
      mode: 'standard',
      collected_at: collectedAt,
      text,
      citations: [],
    });
    if (!checked.ok) {
      fail(checked.error);
      continue;
    }
    const analysis = analyzeAnswer(checked.answer, compiled);
    const own = analysis.entities[0]; // the brand comes first
    answers.push({ ...checked.answer, provenance: { provider_model: '', engine_version: '', source } });
    readings.push({
      answer_id: id,
      brand_id: opts.brand.id,
      source,
      line,
      prompt_id: prompt.id,
      platform,
      collected_at: collectedAt,
      tool: tool as Readings,
      own: {
        mentioned: own.mentions > 0,
        position: own.position > 0 ? own.position : null,
        sentiment: analysis.sentiments[0]?.sentiment ?? null,
        cited: own.citations > 0,
      },
    });
  }
  const lookups = outsideFigures(cache);
  for (let i = 0; i < answers.length; i += BATCH) {
    await withIngestLock(stores, () => ingestBatch(stores, lookups, answers.slice(i, i + BATCH)));
    await saveReadings(stores.pg, readings.slice(i, i + BATCH));
  }
  unreadable.sort((a, b) => a.line - b.line);
  return { source, lines, imported: answers.length, unreadable };
}
