// What adaptive sampling reads of a brand's history (adaptive-sampling.ts): per (prompt, platform,
// region) cell, the answers of the SAMPLING_WINDOW_DAYS UTC days before `day` and how many of them
// name the brand, from the brand's rows in answer_entities (one per answer, summed by `sign` so a
// re-imported answer counts once). The day itself is left out, so planning a day again (a second
// run, Capture now after the daily job) reads the same history and plans the same slots.
import type { ClickHouse } from '../stores/clickhouse.ts';
import type { BrandRecord } from '../tenancy/brands.ts';
import { select } from '../stores/scoped-query.ts';
import { DAY_MS } from '../instant.ts';
import { SAMPLING_WINDOW_DAYS, type CellHistory } from './adaptive-sampling.ts';

/** The key of a cell in cellHistories' map. */
export const cellKey = (c: { promptId: string; platform: string; region: string }) =>
  `${c.promptId}|${c.platform}|${c.region}`;

export async function cellHistories(
  ch: ClickHouse,
  brand: Pick<BrandRecord, 'id' | 'analysis_generation'>,
  day: string,
): Promise<Map<string, CellHistory>> {
  const start = Date.parse(`${day}T00:00:00.000Z`);
  const rows = await ch.rows<{ prompt_id: string; platform: string; region: string; answers: string; named: string }>(
    select(
      {
        table: 'answer_entities',
        scope: {
          brandId: brand.id,
          generation: brand.analysis_generation,
          from: new Date(start - SAMPLING_WINDOW_DAYS * DAY_MS),
          to: new Date(start - 1),
        },
      },
      {
        select:
          'toString(prompt_id) AS prompt_id, platform, region, sum(sign) AS answers, sumIf(sign, mentions > 0) ' +
          'AS named',
        where: 'is_brand = 1',
        groupBy: 'prompt_id, platform, region',
        having: 'answers > 0',
      },
    ),
  );
  const out = new Map<string, CellHistory>();
  for (const r of rows) {
    out.set(cellKey({ promptId: r.prompt_id, platform: r.platform, region: r.region }), {
      answers: Number(r.answers),
      named: Number(r.named),
    });
  }
  return out;
}
