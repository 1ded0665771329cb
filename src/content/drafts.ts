// POST /content-opportunities/:id/draft: writes the full draft from the saved brief (400 without
// one), on one unit of the monthly draft quota (given back when the generation fails). The draft's
// JSON-LD is built from its own fields (jsonld.ts), whichever generator wrote it.
import { badRequest } from '../errors.ts';
import { Brief, Draft } from './schemas.ts';
import { getOpportunity } from './opportunity-store.ts';
import { generationInput, saveGenerated, withQuotaUnit, type GenerationDeps } from './generation.ts';
import { contentGenerator } from './llm/generator.ts';
import { buildJsonLd } from './jsonld.ts';

export const BRIEF_REQUIRED = 'Generate a content brief before generating the full draft.';

/** `organizationId`: the caller's; an opportunity of another organization is not found. */
export async function generateDraft(deps: GenerationDeps, organizationId: string | null, id: string) {
  const pg = deps.stores.pg;
  const opp = await getOpportunity(pg, organizationId, id);
  if (!opp.brief) throw badRequest(BRIEF_REQUIRED);
  const brief = Brief.parse(opp.brief);
  const generator = contentGenerator(deps.config);
  const input = await generationInput(pg, opp);
  return withQuotaUnit(pg, opp.organization_id, 'drafts', deps.now(), async () => {
    const body = await generator.draft(input, brief);
    const content = Draft.parse({
      ...body,
      structuredDataJsonLd: buildJsonLd({
        title: body.title,
        metaDescription: body.metaDescription,
        slug: body.slug,
        keywords: brief.targetKeywords,
        faqs: body.faqs,
        publisher: { name: input.brand.name, domain: input.brand.domains[0] },
      }),
    });
    return { id: opp.id, content, ...(await saveGenerated(pg, opp.id, 'draft', content)) };
  });
}
