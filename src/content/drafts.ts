// POST /content-opportunities/:id/draft: writes the full draft from the saved brief (400 without
// one), on one unit of the monthly draft quota (given back when the generation fails). The draft's
// JSON-LD is built from its own fields (jsonld.ts), whichever generator wrote it.
import type { Ctx } from '../operations/registry.ts';
import { badRequest, notFound } from '../errors.ts';
import { Brief, Draft } from './schemas.ts';
import { getOpportunity, OPPORTUNITY_NOT_FOUND } from './opportunity-store.ts';
import { generationInput, withQuotaUnit } from './generation.ts';
import { contentGenerator } from './llm/generator.ts';
import { buildJsonLd } from './jsonld.ts';

export const BRIEF_REQUIRED = 'Generate a content brief before generating the full draft.';

export async function generateDraft(ctx: Pick<Ctx, 'stores' | 'config' | 'identity' | 'now'>, id: string) {
  const pg = ctx.stores.pg;
  const opp = await getOpportunity(pg, ctx.identity.organizationId, id);
  if (!opp.brief) throw badRequest(BRIEF_REQUIRED);
  const brief = Brief.parse(opp.brief);
  const generator = contentGenerator(ctx.config);
  const input = await generationInput(pg, opp);
  return withQuotaUnit(pg, opp.organization_id, 'drafts', ctx.now(), async () => {
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
    const { rows } = await pg.query<{ had: boolean; generated_at: Date }>(
      `UPDATE content_opportunities o SET draft = $2::jsonb, draft_generated_at = clock_timestamp()
         FROM (SELECT id, draft IS NOT NULL AS had FROM content_opportunities WHERE id = $1) prev
        WHERE o.id = prev.id
        RETURNING prev.had, o.draft_generated_at AS generated_at`,
      [opp.id, JSON.stringify(content)],
    );
    if (!rows[0]) throw notFound(OPPORTUNITY_NOT_FOUND);
    return { id: opp.id, content, generated_at: new Date(rows[0].generated_at).toISOString(), regenerated: rows[0].had };
  });
}
