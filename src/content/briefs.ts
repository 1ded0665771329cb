// POST /content-opportunities/:id/brief: always generates a fresh brief and replaces the saved one,
// on one unit of the monthly brief quota (given back when the generation fails).
import { Brief } from './schemas.ts';
import { getOpportunity } from './opportunity-store.ts';
import { generationInput, saveGenerated, withQuotaUnit, type GenerationDeps } from './generation.ts';
import { contentGenerator } from './llm/generator.ts';

/** `organizationId`: the caller's; an opportunity of another organization is not found. */
export async function generateBrief(deps: GenerationDeps, organizationId: string | null, id: string) {
  const pg = deps.stores.pg;
  const opp = await getOpportunity(pg, organizationId, id);
  const generator = contentGenerator(deps.config);
  const input = await generationInput(pg, opp);
  return withQuotaUnit(pg, opp.organization_id, 'briefs', deps.now(), async () => {
    const brief = Brief.parse(await generator.brief(input));
    return { id: opp.id, brief, ...(await saveGenerated(pg, opp.id, 'brief', brief)) };
  });
}
