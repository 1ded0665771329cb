// The tracker_readings table (postgres/089_tracker_readings.sql): per answer imported from another
// tracker, that tool's readings and Answerscope's own of the same answer. Written by the import
// (tracker-import.ts), read by the agreement report (analytics/import-agreement.ts).
import type { Queryable } from '../../stores/postgres.ts';
import type { Polarity } from '../analysis/sentiment/entity-sentiment.ts';

export interface Readings {
  mentioned: boolean | null;
  /** Rank by first mention among the entities named; null when not named or not given. */
  position: number | null;
  sentiment: Polarity | null;
  cited: boolean | null;
}

export interface TrackerReading {
  answer_id: string;
  brand_id: string;
  source: string;
  line: number;
  prompt_id: string;
  platform: string;
  collected_at: string;
  tool: Readings;
  own: Readings & { mentioned: boolean; cited: boolean };
}

/** Stores the readings, replacing those of the same answers (an import run again). */
export async function saveReadings(pg: Queryable, rows: readonly TrackerReading[]): Promise<void> {
  if (!rows.length) return;
  const values: unknown[] = [];
  const tuples = rows.map((r, i) => {
    values.push(
      r.answer_id,
      r.brand_id,
      r.source,
      r.line,
      r.prompt_id,
      r.platform,
      r.collected_at,
      r.tool.mentioned,
      r.tool.position,
      r.tool.sentiment,
      r.tool.cited,
      r.own.mentioned,
      r.own.position,
      r.own.sentiment,
      r.own.cited,
    );
    const at = i * 15;
    return `(${Array.from({ length: 15 }, (_, k) => `$${at + k + 1}`).join(', ')})`;
  });
  await pg.query(
    `INSERT INTO tracker_readings (answer_id, brand_id, source, line, prompt_id, platform, collected_at,
       tool_mentioned, tool_position, tool_sentiment, tool_cited, own_mentioned, own_position, own_sentiment, own_cited)
     VALUES ${tuples.join(', ')}
     ON CONFLICT (answer_id) DO UPDATE SET line = EXCLUDED.line,
       tool_mentioned = EXCLUDED.tool_mentioned, tool_position = EXCLUDED.tool_position,
       tool_sentiment = EXCLUDED.tool_sentiment, tool_cited = EXCLUDED.tool_cited,
       own_mentioned = EXCLUDED.own_mentioned, own_position = EXCLUDED.own_position,
       own_sentiment = EXCLUDED.own_sentiment, own_cited = EXCLUDED.own_cited, imported_at = now()`,
    values,
  );
}

interface Row {
  answer_id: string;
  brand_id: string;
  source: string;
  line: number;
  prompt_id: string;
  platform: string;
  collected_at: Date;
  tool_mentioned: boolean | null;
  tool_position: number | null;
  tool_sentiment: Polarity | null;
  tool_cited: boolean | null;
  own_mentioned: boolean;
  own_position: number | null;
  own_sentiment: Polarity | null;
  own_cited: boolean;
}

/** Every reading of a brand's answers imported from `source`, oldest first. */
export async function readingsOf(pg: Queryable, brandId: string, source: string): Promise<TrackerReading[]> {
  const { rows } = await pg.query<Row>(
    `SELECT * FROM tracker_readings WHERE brand_id = $1 AND source = $2 ORDER BY collected_at, answer_id`,
    [brandId, source],
  );
  return rows.map((r) => ({
    answer_id: r.answer_id,
    brand_id: r.brand_id,
    source: r.source,
    line: r.line,
    prompt_id: r.prompt_id,
    platform: r.platform,
    collected_at: new Date(r.collected_at).toISOString(),
    tool: { mentioned: r.tool_mentioned, position: r.tool_position, sentiment: r.tool_sentiment, cited: r.tool_cited },
    own: { mentioned: r.own_mentioned, position: r.own_position, sentiment: r.own_sentiment, cited: r.own_cited },
  }));
}

/** Whether any answer of the brand was imported from `source` (a `source` filter naming none is refused). */
export async function hasImport(pg: Queryable, brandId: string, source: string): Promise<boolean> {
  const { rows } = await pg.query(`SELECT 1 FROM tracker_readings WHERE brand_id = $1 AND source = $2 LIMIT 1`, [
    brandId,
    source,
  ]);
  return rows.length > 0;
}

/**
 * The trackers the brand imported answers from, by name, each with its number of answers (a row
 * per imported answer: answer_id is the key, so an import run again counts nothing twice). The
 * names a `source` filter may take beyond capture and import; byte order, as the API lists them.
 */
export async function importSources(pg: Queryable, brandId: string): Promise<{ source: string; answers: number }[]> {
  const { rows } = await pg.query<{ source: string; answers: number }>(
    `SELECT source, count(*)::int AS answers FROM tracker_readings WHERE brand_id = $1
     GROUP BY source ORDER BY source COLLATE "C"`,
    [brandId],
  );
  return rows;
}
