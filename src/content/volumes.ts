// Prompt volumes: keyword search volumes imported from a file (`answerscope volumes import`), the
// per-prompt analysis of the analyze-volumes job, and the rows of GET /prompt-volumes.
// docs/content.md documents the file format and every rule used here.
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import readline from 'node:readline';
import type { Queryable } from '../stores/postgres.ts';
import { z } from 'zod';
import type { Postgres } from '../stores/postgres.ts';
import { UserError } from '../errors.ts';
import { columnNumber, INT32, within } from '../column-numbers.ts';
import { normalizeText, promptKeywords, volumeCandidates } from './keywords.ts';
import { classifyIntent, type Intent } from './intent.ts';
import { competitorsOf } from '../tenancy/brands.ts';
import { brandPrompts, promptTexts } from '../tenancy/prompts.ts';
import { humanOrder } from '../text-order.ts';

// ---- the volumes file -------------------------------------------------------------------------

const lineSchema = z.object({
  keyword: z
    .string({ error: 'keyword must be a string' })
    .max(300, 'keyword must be at most 300 characters')
    .transform(normalizeText)
    .refine((k) => k.length > 0, 'keyword must contain a letter or digit'),
  // keyword_volumes' integer columns (postgres/010_content.sql).
  volume: columnNumber(within(INT32, 0), 'volume'),
  region: z
    .string({ error: 'region must be a string' })
    .trim()
    .max(64, 'region must be at most 64 characters')
    .transform((r) => r.toUpperCase())
    .optional()
    .default(''),
  competition_index: columnNumber(within(INT32, 0, 100), 'competition_index')
    .nullable()
    .optional(),
});

export interface VolumeImportSummary {
  read: number;
  imported: number;
  rejected: { line: number; error: string }[];
}

/** The pool wrapper or a transaction's client. */
type Db = Queryable;

async function upsertVolumes(db: Db, rows: Map<string, z.output<typeof lineSchema>>) {
  if (!rows.size) return;
  const list = [...rows.values()];
  // Only a changed value touches a row, so re-importing a file leaves imported_at as it was.
  await db.query(
    `INSERT INTO keyword_volumes (keyword, region, volume, competition_index)
     SELECT * FROM unnest($1::text[], $2::text[], $3::int[], $4::int[])
     ON CONFLICT (keyword, region) DO UPDATE
       SET volume = EXCLUDED.volume, competition_index = EXCLUDED.competition_index, imported_at = now()
       WHERE (keyword_volumes.volume, keyword_volumes.competition_index)
             IS DISTINCT FROM (EXCLUDED.volume, EXCLUDED.competition_index)`,
    [
      list.map((r) => r.keyword),
      list.map((r) => r.region),
      list.map((r) => r.volume),
      list.map((r) => r.competition_index ?? null),
    ],
  );
}

/**
 * Imports a JSON Lines volumes file in one transaction. Bad lines are rejected with their line
 * number and the others imported; a keyword listed twice for a region keeps its last line.
 */
export async function importVolumes(pgdb: Postgres, file: string): Promise<VolumeImportSummary> {
  try {
    fs.accessSync(file, fs.constants.R_OK);
  } catch (err) {
    throw new UserError(`Cannot read ${file}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
  }
  const summary: VolumeImportSummary = { read: 0, imported: 0, rejected: [] };
  await pgdb.tx(async (client) => {
    const rl = readline.createInterface({
      input: fs.createReadStream(file, { encoding: 'utf8' }),
      crlfDelay: Infinity,
    });
    let batch = new Map<string, z.output<typeof lineSchema>>();
    let lineNo = 0;
    for await (const text of rl) {
      lineNo++;
      if (!text.trim()) continue;
      summary.read++;
      let value: unknown;
      try {
        value = JSON.parse(text);
      } catch (err) {
        summary.rejected.push({ line: lineNo, error: `not valid JSON: ${(err as Error).message}` });
        continue;
      }
      if (value === null || typeof value !== 'object' || Array.isArray(value)) {
        summary.rejected.push({ line: lineNo, error: 'must be a JSON object' });
        continue;
      }
      const parsed = lineSchema.safeParse(value);
      if (!parsed.success) {
        const issue = parsed.error.issues[0];
        const missing =
          issue.code === 'invalid_type' && (value as Record<string, unknown>)[String(issue.path[0])] === undefined;
        summary.rejected.push({
          line: lineNo,
          error: missing ? `${String(issue.path[0])} is required` : issue.message,
        });
        continue;
      }
      summary.imported++;
      batch.set(`${parsed.data.region}\u0000${parsed.data.keyword}`, parsed.data);
      if (batch.size >= 1000) {
        await upsertVolumes(client, batch);
        batch = new Map();
      }
    }
    await upsertVolumes(client, batch);
  });
  return summary;
}

// ---- the analysis of a prompt -------------------------------------------------------------------

export type Competition = 'low' | 'medium' | 'high';

/** Google's buckets of its 0-100 competition index. */
export const competitionOf = (index: number | null): Competition | null =>
  index === null ? null : index < 34 ? 'low' : index < 67 ? 'medium' : 'high';

export interface KeywordVolume {
  keyword: string;
  region: string;
  volume: number;
  competition_index: number | null;
}

export interface VolumeAnalysis {
  intent: Intent;
  keywords: string[];
  google_volumes: { keyword: string; volume: number }[];
  total_google_volume: number;
  est_ai_volume: number;
  ai_volume_multiplier: number;
  competition_index: number | null;
  competition: Competition | null;
}

/**
 * Analyses one prompt against the imported volumes. `regions`: the prompt's regions, or the
 * brand's when it has none; a keyword's volume is the sum over those regions, or its all-regions
 * ('') figure when no region has one.
 */
export function analyzePrompt(
  prompt: { text: string; regions: string[] },
  volumes: Map<string, KeywordVolume[]>,
  opts: { multiplier: number; entityNames: string[] },
): VolumeAnalysis {
  const regions = new Set(prompt.regions.map((r) => r.toUpperCase()).filter(Boolean));
  const matched: { keyword: string; volume: number; index: number | null }[] = [];
  for (const keyword of volumeCandidates(prompt.text)) {
    const rows = volumes.get(keyword) ?? [];
    const regional = rows.filter((r) => r.region !== '' && regions.has(r.region));
    const used = regional.length ? regional : rows.filter((r) => r.region === '');
    if (!used.length) continue;
    const volume = used.reduce((s, r) => s + r.volume, 0);
    matched.push({
      keyword,
      volume,
      index: weightedIndex(used.map((r) => ({ volume: r.volume, index: r.competition_index }))),
    });
  }
  matched.sort((a, b) => b.volume - a.volume || humanOrder(a.keyword, b.keyword));
  const total = matched.reduce((s, m) => s + m.volume, 0);
  const index = weightedIndex(matched.map((m) => ({ volume: m.volume, index: m.index })));
  // Keywords: the matched ones first (by volume), then those read from the prompt itself.
  const keywords = [...new Set([...matched.map((m) => m.keyword), ...promptKeywords(prompt.text)])].slice(0, 10);
  return {
    intent: classifyIntent(prompt.text, opts.entityNames),
    keywords,
    google_volumes: matched.map((m) => ({ keyword: m.keyword, volume: m.volume })),
    total_google_volume: total,
    est_ai_volume: Math.round(total * opts.multiplier),
    ai_volume_multiplier: opts.multiplier,
    competition_index: index,
    competition: competitionOf(index),
  };
}

/** Volume-weighted mean of the known indexes (a plain mean when all volumes are 0); null if none. */
function weightedIndex(items: { volume: number; index: number | null }[]): number | null {
  const known = items.filter((i): i is { volume: number; index: number } => i.index !== null);
  if (!known.length) return null;
  const weight = known.reduce((s, i) => s + i.volume, 0);
  const mean =
    weight > 0
      ? known.reduce((s, i) => s + i.index * i.volume, 0) / weight
      : known.reduce((s, i) => s + i.index, 0) / known.length;
  return Math.round(mean);
}

/** Re-analyses every prompt of a brand; writes only the analyses that changed. */
export async function analyzeBrandVolumes(
  pgdb: Postgres,
  brand: { id: string; name: string; region: string; aliases: string[] },
  multiplier: number,
): Promise<{ prompts: number; changed: number }> {
  const [prompts, competitors] = await Promise.all([brandPrompts(pgdb, brand.id), competitorsOf(pgdb, brand.id)]);
  const entityNames = [brand.name, ...brand.aliases, ...competitors.flatMap((c) => [c.name, ...c.aliases])];
  const candidates = [...new Set(prompts.flatMap((p) => volumeCandidates(p.text)))];
  const { rows: found } = await pgdb.query<KeywordVolume>(
    'SELECT keyword, region, volume, competition_index FROM keyword_volumes WHERE keyword = ANY($1::text[])',
    [candidates],
  );
  const volumes = new Map<string, KeywordVolume[]>();
  for (const v of found) volumes.set(v.keyword, [...(volumes.get(v.keyword) ?? []), v]);

  let changed = 0;
  for (const p of prompts) {
    const regions = p.regions.length ? p.regions : brand.region ? [brand.region] : [];
    const a = analyzePrompt({ text: p.text, regions }, volumes, { multiplier, entityNames });
    const digest = createHash('sha256').update(JSON.stringify(a)).digest('hex');
    const { rowCount } = await pgdb.query(
      'INSERT INTO prompt_volumes (prompt_id, brand_id, intent, keywords, google_volumes, total_google_volume, ' +
        `est_ai_volume,
         ai_volume_multiplier, competition_index, competition, digest)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)
       ON CONFLICT (prompt_id) DO UPDATE SET intent = EXCLUDED.intent, keywords = EXCLUDED.keywords,
         google_volumes = EXCLUDED.google_volumes, total_google_volume = EXCLUDED.total_google_volume,
         est_ai_volume = EXCLUDED.est_ai_volume, ai_volume_multiplier = EXCLUDED.ai_volume_multiplier,
         competition_index = EXCLUDED.competition_index, competition = EXCLUDED.competition,
         digest = EXCLUDED.digest, fetched_at = clock_timestamp()
       WHERE prompt_volumes.digest <> EXCLUDED.digest`,
      [
        p.id,
        brand.id,
        a.intent,
        a.keywords,
        JSON.stringify(a.google_volumes),
        a.total_google_volume,
        a.est_ai_volume,
        a.ai_volume_multiplier,
        a.competition_index,
        a.competition,
        digest,
      ],
    );
    changed += rowCount ?? 0;
  }
  return { prompts: prompts.length, changed };
}

// ---- reads ----------------------------------------------------------------------------------------

export interface PromptVolumeRow extends VolumeAnalysis {
  prompt_id: string;
  prompt_text: string;
  fetched_at: string;
}

export async function listPromptVolumes(pgdb: Postgres, brandId: string, limit: number): Promise<PromptVolumeRow[]> {
  // Ties are broken by prompt text as Postgres sorts it: tenancy gives the brand's prompts in that
  // order, and their rank orders these rows without a join to its table.
  const texts = await promptTexts(pgdb, brandId);
  const { rows } = await pgdb.query<VolumeAnalysis & { prompt_id: string; fetched_at: Date }>(
    `SELECT v.prompt_id, v.intent, v.keywords, v.google_volumes, v.total_google_volume,
            v.est_ai_volume, v.ai_volume_multiplier, v.competition_index, v.competition, v.fetched_at
       FROM prompt_volumes v JOIN unnest($2::uuid[]) WITH ORDINALITY AS by_text (prompt_id, rank) USING (prompt_id)
      WHERE v.brand_id = $1
      ORDER BY v.est_ai_volume DESC, v.total_google_volume DESC, by_text.rank, v.prompt_id
      LIMIT $3`,
    [brandId, [...texts.keys()], limit],
  );
  return rows.map(({ prompt_id, ...r }) => ({
    prompt_id,
    prompt_text: texts.get(prompt_id)!.text,
    ...r,
    fetched_at: new Date(r.fetched_at).toISOString(),
  }));
}

/** The analysis of some prompts (for opportunity scores and briefs), by prompt id. */
export async function volumesOf(pgdb: Db, promptIds: string[]): Promise<Map<string, VolumeAnalysis>> {
  if (!promptIds.length) return new Map();
  const { rows } = await pgdb.query<VolumeAnalysis & { prompt_id: string }>(
    `SELECT prompt_id, intent, keywords, google_volumes, total_google_volume, est_ai_volume, ai_volume_multiplier,
            competition_index, competition
       FROM prompt_volumes WHERE prompt_id = ANY($1::uuid[])`,
    [promptIds],
  );
  return new Map(rows.map((r) => [r.prompt_id, r]));
}
