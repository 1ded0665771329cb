// A brand with history for the workspace pages' browser test (dashboard-workspace.test.ts): Acme
// with two competitors, two topics, three prompts and answers on each of the last 20 complete UTC
// days, citing sources some of which only the competitors' answers cite (the citation gap).
import { randomBytes } from 'node:crypto';
import { ingestLines, seedTenant, type Tenant, type TestServer } from '../../helpers/server.ts';
import { setPasswordByEmail } from '../../../src/tenancy/accounts.ts';

export const BRAND = {
  name: 'Acme',
  slug: 'acme',
  industry: 'Outdoor gear',
  region: 'US',
  domains: ['acme.example'],
  aliases: ['Acme Outdoors'],
  competitors: [
    { name: 'Globex', domains: ['globex.example'], aliases: [] },
    { name: 'Initech', domains: ['initech.example'], aliases: [] },
  ],
  topics: [
    {
      name: 'Hiking boots',
      prompts: [
        { text: 'best waterproof hiking boots', platforms: ['chatgpt', 'perplexity'], regions: ['US'] },
        { text: 'lightweight boots for day hikes', platforms: ['chatgpt', 'perplexity'], regions: ['US'] },
      ],
    },
    {
      name: 'Trail running',
      prompts: [{ text: 'trail running shoes for beginners', platforms: ['chatgpt', 'perplexity'], regions: ['US'] }],
    },
  ],
};

// What each answer says and cites, in turn; gearlab.example and trailforum.example are cited only
// beside competitors (the gap), reviews.example beside everyone.
const ANSWERS: { text: string; urls: string[] }[] = [
  {
    text: 'Acme Ridge boots stay dry in deep streams; Globex Summit is lighter but less durable.',
    urls: ['https://reviews.example/boots/acme-ridge', 'https://acme.example/ridge'],
  },
  {
    text: 'Globex Summit is the pick for most hikers, with Initech Trailhead a budget option.',
    urls: ['https://gearlab.example/best-boots', 'https://reviews.example/boots/globex'],
  },
  {
    text: 'For day hikes, Initech Trailhead is comfortable out of the box.',
    urls: ['https://trailforum.example/t/initech-trailhead'],
  },
  {
    text: 'Acme makes a light mid boot that many reviewers prefer over Globex.',
    urls: ['https://acme.example/mid', 'https://reviews.example/boots/acme-mid'],
  },
  { text: 'Look for a gusseted tongue and a grippy outsole; fit matters most.', urls: [] },
];

/** Which answers each prompt gets, in turn: the first favours the brand, the others its competitors. */
const MIX = [
  [0, 1, 3, 0, 4],
  [1, 2, 1, 4, 0],
  [2, 1, 4, 2, 3],
];

export const DAYS = 20;

const dayAgo = (n: number) => {
  const d = new Date();
  d.setUTCHours(12, 0, 0, 0);
  return new Date(d.getTime() - n * 86_400_000);
};

export interface SeededPerson extends Tenant {
  password: string;
}

/** A new organization on `plan`, its admin with a password, and the brand's answers of the last DAYS days. */
export async function seededPerson(server: TestServer, plan = 'growth'): Promise<SeededPerson> {
  const tenant = await seedTenant(server, [BRAND], plan);
  const password = randomBytes(9).toString('base64url');
  await setPasswordByEmail(server.stores.pg, tenant.email, password);
  const lines = [];
  for (let day = 1; day <= DAYS; day++) {
    for (const [i, promptId] of tenant.promptIds.entries()) {
      const a = ANSWERS[MIX[i % MIX.length][day % 5]];
      const platform = (day + i) % 2 ? 'chatgpt' : 'perplexity';
      lines.push({
        prompt_id: promptId,
        platform,
        model: platform === 'chatgpt' ? 'gpt-4o' : 'sonar',
        region: 'US',
        collected_at: new Date(dayAgo(day).getTime() + i * 60_000).toISOString(),
        text: a.text,
        citations: a.urls.map((url) => ({ url, title: `About ${new URL(url).pathname.split('/').pop()}` })),
      });
    }
  }
  await ingestLines(server, lines);
  return { ...tenant, password };
}
