// The agreement report of an import from another tracker (docs/metrics.md "Agreement with another
// tracker"): on the same answers, per reading, the tool's figure and Answerscope's, how often they
// agree, Cohen's kappa for the yes/no readings, the mean absolute difference of positions, and the
// answers where the two differ, each with both readings. Both readings were kept at import
// (tracking/ingest/tracker-readings.ts); Answerscope's is its analysis of the answer's text then.
import type { Queryable } from '../stores/postgres.ts';
import { readingsOf, type Readings } from '../tracking/ingest/tracker-readings.ts';
import { agreementPercent, cohensKappa, meanAbsoluteDifference } from './agreement.ts';
import { round } from './formulas.ts';

export const READINGS = ['mentioned', 'position', 'sentiment', 'cited'] as const;
type Reading = (typeof READINGS)[number];

const pct = (k: number, n: number) => (n ? round((100 * k) / n, 1) : null);
const mean = (xs: number[]) => (xs.length ? round(xs.reduce((a, b) => a + b, 0) / xs.length, 2) : null);

/** A yes/no reading: the answers both read, each side's yes rate, agreement and kappa. */
function yesNo(pairs: [boolean, boolean][]) {
  return {
    answers: pairs.length,
    tool: pct(pairs.filter(([a]) => a).length, pairs.length),
    answerscope: pct(pairs.filter(([, b]) => b).length, pairs.length),
    agreement_pct: agreementPercent(pairs),
    kappa: cohensKappa(pairs),
  };
}

/** Whether the two readings of one answer differ, for a reading the tool gave. */
function differs(r: Reading, tool: Readings, own: Readings): boolean {
  if (tool[r] === null && r !== 'position') return false;
  // Position: compared where the tool gave one or said the brand was named (a position null then means "not named").
  if (r === 'position' && tool.position === null && tool.mentioned === null) return false;
  return tool[r] !== own[r];
}

export async function importAgreement(
  pg: Queryable,
  brandId: string,
  source: string,
  limit = Number.POSITIVE_INFINITY,
) {
  const rows = await readingsOf(pg, brandId, source);
  const pairs = <T>(r: Reading) =>
    rows.filter((x) => x.tool[r] !== null && x.own[r] !== null).map((x) => [x.tool[r], x.own[r]] as [T, T]);
  const positions = pairs<number>('position');
  const sentiments = pairs<string>('sentiment');
  const disagreeing = rows
    .map((x) => ({ x, readings: READINGS.filter((r) => differs(r, x.tool, x.own)) }))
    .filter((d) => d.readings.length > 0);
  return {
    source,
    answers: rows.length,
    readings: {
      mentioned: yesNo(pairs<boolean>('mentioned')),
      position: {
        answers: positions.length,
        tool: mean(positions.map(([a]) => a)),
        answerscope: mean(positions.map(([, b]) => b)),
        mean_absolute_difference: meanAbsoluteDifference(positions),
      },
      sentiment: {
        answers: sentiments.length,
        tool: pct(sentiments.filter(([a]) => a === 'positive').length, sentiments.length),
        answerscope: pct(sentiments.filter(([, b]) => b === 'positive').length, sentiments.length),
        agreement_pct: agreementPercent(sentiments),
      },
      cited: yesNo(pairs<boolean>('cited')),
    },
    disagreements_total: disagreeing.length,
    disagreements: disagreeing.slice(0, limit).map(({ x, readings }) => ({
      answer_id: x.answer_id,
      line: x.line,
      prompt_id: x.prompt_id,
      platform: x.platform,
      collected_at: x.collected_at,
      differ: readings,
      tool: x.tool,
      answerscope: x.own,
    })),
  };
}
