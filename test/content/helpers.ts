// A tenant with tracking data that makes content opportunities and topic suggestions, and small
// helpers to run the content jobs in-process.
import fs from 'node:fs';
import path from 'node:path';
import pino from 'pino';
import { seedTenant, uniq, type TestServer, type Tenant } from '../helpers/server.ts';
import { ingestFile } from '../../src/tracking/ingest/file.ts';
import { findJob } from '../../jobs/index.ts';

export const DATE = '2026-03-10';

/** Prompts by key, in the order of the workspace below. */
export const PROMPTS = {
  startups: 'best crm for startups',
  email: 'crm with email integration',
  migrate: 'how to migrate crm data',
  pricing: 'crm pricing for small teams',
  onboarding: 'crm onboarding checklist for small teams',
} as const;

export function contentBrands() {
  return [
    {
      name: 'Acme',
      slug: 'acme',
      industry: 'Software',
      region: 'US',
      domains: ['acme.example'],
      aliases: ['Acme Inc'],
      competitors: [
        { name: 'Globex', domains: ['globex.example'], aliases: [] },
        { name: 'Initech', domains: ['initech.example'], aliases: [] },
      ],
      topics: [
        {
          name: 'CRM software',
          prompts: [
            { text: PROMPTS.startups, regions: ['US'] },
            { text: PROMPTS.email, regions: ['US'] },
          ],
        },
      ],
      prompts: [{ text: PROMPTS.migrate }, { text: PROMPTS.pricing }, { text: PROMPTS.onboarding }],
    },
  ];
}

export interface ContentTenant extends Tenant {
  prompt: Record<keyof typeof PROMPTS, string>;
}

export async function seedContentTenant(server: TestServer, plan = 'growth'): Promise<ContentTenant> {
  const t = await seedTenant(server, contentBrands(), plan);
  const b = t.workspace.organizations[0].brands[0];
  const ids = t.promptIds;
  const texts = [
    ...b.topics.flatMap((x: any) => x.prompts.map((p: any) => p.text)),
    ...b.prompts.map((p: any) => p.text),
  ];
  const prompt = Object.fromEntries(
    Object.entries(PROMPTS).map(([k, text]) => [k, ids[texts.indexOf(text)]]),
  ) as ContentTenant['prompt'];
  return { ...t, prompt };
}

const answer = (promptId: string, day: number, text: string, citations: { url: string; title?: string }[] = []) => ({
  prompt_id: promptId,
  platform: 'chatgpt',
  model: 'gpt-4o',
  region: 'US',
  collected_at: `2026-03-0${day}T08:00:00Z`,
  text,
  citations,
});

/**
 * - startups: Globex named in 3 of 4 answers where Acme is absent, citing globex.example and g2.com
 *   (owned and earned);
 * - email: Initech named, techradar.com cited, Acme absent (earned only);
 * - migrate: Globex named, nothing cited (owned only);
 * - pricing: only Acme named (no opportunity); onboarding: no answers.
 */
export function trackingAnswers(t: ContentTenant) {
  const p = t.prompt;
  const g2 = { url: 'https://www.g2.com/categories/crm-for-startups', title: 'Best CRM Software for Startups' };
  const globexPage = { url: 'https://globex.example/compare/acme', title: 'Globex vs Acme: CRM for Startups' };
  const techradar = { url: 'https://www.techradar.com/best/email-crm', title: 'Best CRM with Email Integration' };
  return [
    answer(p.startups, 5, 'Globex is the most popular CRM for startups, with a generous free tier.', [g2, globexPage]),
    answer(p.startups, 6, 'Many founders pick Globex; Initech is another option.', [g2]),
    answer(p.startups, 7, 'Globex leads for startups.', [globexPage]),
    answer(p.startups, 8, 'Acme and Globex both work well for startups.', [g2]),
    answer(p.email, 5, 'Initech integrates with every email provider.', [techradar]),
    answer(p.email, 6, 'Initech is a good pick for email integration.', [techradar]),
    answer(p.migrate, 5, 'Globex offers a migration assistant for CRM data.'),
    answer(p.migrate, 7, 'Use Globex import tools to migrate CRM data.'),
    answer(p.pricing, 5, 'Acme has simple pricing for small teams.'),
    answer(p.pricing, 6, 'Acme costs less than most for small teams.'),
  ];
}

export async function ingest(server: TestServer, lines: object[]) {
  const file = path.join(server.dataDir, `${uniq('answers')}.jsonl`);
  fs.writeFileSync(file, lines.map((l) => JSON.stringify(l)).join('\n'));
  const r = await ingestFile(server.stores, file);
  if (r.rejected.length) throw new Error(`ingest rejected lines: ${JSON.stringify(r.rejected)}`);
  return r;
}

export async function runJob(server: TestServer, name: string, brandId: string, date = DATE): Promise<any> {
  const job = findJob(name);
  if (!job) throw new Error(`no job ${name}`);
  return job.run(
    { stores: server.stores, config: server.config, log: pino({ level: 'silent' }), now: () => new Date() },
    { brandId, date },
  );
}

/** The rows a job writes for a brand, to compare before and after a re-run. */
export async function contentSnapshot(server: TestServer, brandId: string) {
  const q = async (sql: string) => (await server.stores.pg.query(sql, [brandId])).rows;
  return {
    suggestions: await q('SELECT * FROM topic_suggestions WHERE brand_id = $1 ORDER BY id'),
    opportunities: await q('SELECT * FROM content_opportunities WHERE brand_id = $1 ORDER BY id'),
    volumes: await q('SELECT * FROM prompt_volumes WHERE brand_id = $1 ORDER BY prompt_id'),
    topics: await q('SELECT * FROM topics WHERE brand_id = $1 ORDER BY id'),
  };
}
