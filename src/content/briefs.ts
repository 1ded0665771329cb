// POST /content-opportunities/:id/brief: always generates a fresh brief and replaces the saved one,
// on one unit of the monthly brief quota (given back when the generation fails).
import type { Ctx } from '../operations/registry.ts';
import { Brief } from './schemas.ts';
import { getOpportunity } from './opportunity-store.ts';
import { generationInput, saveGenerated, withQuotaUnit } from './generation.ts';
import { contentGenerator } from './llm/generator.ts';

export async function generateBrief(ctx: Pick<Ctx, 'stores' | 'config' | 'identity' | 'now'>, id: string) {
  const pg = ctx.stores.pg;
  const opp = await getOpportunity(pg, ctx.identity.organizationId, id);
  const generator = contentGenerator(ctx.config);
  const input = await generationInput(pg, opp);
  return withQuotaUnit(pg, opp.organization_id, 'briefs', ctx.now(), async () => {
    const brief = Brief.parse(await generator.brief(input));
    return { id: opp.id, brief, ...(await saveGenerated(pg, opp.id, 'brief', brief)) };
  });
}
