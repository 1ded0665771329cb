// POST /content-opportunities/:id/brief: always generates a fresh brief and replaces the saved one,
// on one unit of the monthly brief quota (given back when the generation fails).
import type { Ctx } from '../operations/registry.ts';
import { notFound } from '../errors.ts';
import { Brief } from './schemas.ts';
import { getOpportunity, OPPORTUNITY_NOT_FOUND } from './opportunity-store.ts';
import { generationInput, withQuotaUnit } from './generation.ts';
import { contentGenerator } from './llm/generator.ts';

export async function generateBrief(ctx: Pick<Ctx, 'stores' | 'config' | 'identity' | 'now'>, id: string) {
  const pg = ctx.stores.pg;
  const opp = await getOpportunity(pg, ctx.identity.organizationId, id);
  const generator = contentGenerator(ctx.config);
  const input = await generationInput(pg, opp);
  return withQuotaUnit(pg, opp.organization_id, 'briefs', ctx.now(), async () => {
    const brief = Brief.parse(await generator.brief(input));
    // `prev` reads the row as it was before this update: whether a brief was replaced.
    const { rows } = await pg.query<{ had: boolean; generated_at: Date }>(
      `UPDATE content_opportunities o SET brief = $2::jsonb, brief_generated_at = clock_timestamp()
         FROM (SELECT id, brief IS NOT NULL AS had FROM content_opportunities WHERE id = $1) prev
        WHERE o.id = prev.id
        RETURNING prev.had, o.brief_generated_at AS generated_at`,
      [opp.id, JSON.stringify(brief)],
    );
    if (!rows[0]) throw notFound(OPPORTUNITY_NOT_FOUND);
    return { id: opp.id, brief, generated_at: new Date(rows[0].generated_at).toISOString(), regenerated: rows[0].had };
  });
}
