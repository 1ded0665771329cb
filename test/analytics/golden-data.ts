// The golden answer set: 24 standard answers over 3 days (Mon 2 Nov, Tue 3 Nov, Mon 9 Nov 2026),
// 2 platforms, 2 regions, 3 prompts in 2 topics, plus 2 shopping answers that no visibility figure
// may count. Texts and citation sets are few and simple so that every figure of golden.test.ts can
// be worked out by hand; the table below is what the hand computation starts from.
//
// Brand Acme (acme.example, alias "Acme Inc"); competitors Globex (globex.example), Initech.
//
// Texts (mentions and positions):
//   A "Acme is the best. Globex is fine."       Acme 1 @1, Globex 1 @2
//   B "Globex leads, then Acme Inc and Acme."   Globex 1 @1, Acme 2 @2 ("Acme Inc" is one mention)
//   C "Initech and Globex."                     Initech 1 @1, Globex 1 @2
//   D "Nothing relevant here."                  nobody
//   E "Acme, Initech, Globex, Acme."            Acme 2 @1, Initech 1 @2, Globex 1 @3
// Citation sets:
//   c0 none; c1 acme.example/pricing + g2.com review; c2 globex.example/ + reddit thread;
//   c3 acme.example/pricing?utm_source=x (the same URL as c1's once normalised) + techcrunch news.
//
//  #  day  prompt platform   region text cites | Acme score
//  1  d1   P1     chatgpt    US     A    c1    | 100
//  2  d1   P1     perplexity US     B    c2    | 67.5
//  3  d1   P2     chatgpt    US     C    c0    | 0
//  4  d1   P2     perplexity GB     D    c3    | 25
//  5  d1   P3     chatgpt    GB     E    c1    | 100
//  6  d1   P3     perplexity US     A    c0    | 75
//  7  d1   P1     chatgpt    GB     B    c0    | 67.5
//  8  d1   P2     chatgpt    US     A    c2    | 75
//  9  d2   P1     chatgpt    US     E    c3    | 100
// 10  d2   P1     perplexity GB     C    c1    | 25
// 11  d2   P2     perplexity US     A    c1    | 100
// 12  d2   P3     chatgpt    US     B    c2    | 67.5
// 13  d2   P3     perplexity GB     D    c0    | 0
// 14  d2   P2     chatgpt    GB     A    c3    | 100
// 15  d2   P1     perplexity US     C    c2    | 0
// 16  d2   P3     chatgpt    US     E    c0    | 75
// 17  d3   P1     chatgpt    US     A    c0    | 75
// 18  d3   P2     perplexity US     B    c1    | 92.5
// 19  d3   P3     chatgpt    GB     C    c3    | 25
// 20  d3   P1     perplexity GB     E    c2    | 75
// 21  d3   P2     chatgpt    US     D    c1    | 25
// 22  d3   P3     perplexity US     A    c3    | 100
// 23  d3   P1     chatgpt    GB     B    c1    | 92.5
// 24  d3   P2     perplexity GB     C    c0    | 0
// The k-th answer of a day (k = 0..7) is collected at 06:00 + 2k hours UTC.
// P1, P2 are in topic "CRM"; P3 in topic "Email". chatgpt answers use model gpt-4o, perplexity sonar.

export const DAYS = ['2026-11-02', '2026-11-03', '2026-11-09'];

const TEXTS: Record<string, string> = {
  A: 'Acme is the best. Globex is fine.',
  B: 'Globex leads, then Acme Inc and Acme.',
  C: 'Initech and Globex.',
  D: 'Nothing relevant here.',
  E: 'Acme, Initech, Globex, Acme.',
};

const CITES: Record<string, { url: string; title?: string }[]> = {
  c0: [],
  c1: [
    { url: 'https://acme.example/pricing', title: 'Acme pricing' },
    { url: 'https://www.g2.com/products/acme/reviews', title: 'Acme reviews' },
  ],
  c2: [
    { url: 'https://globex.example/', title: 'Globex' },
    { url: 'https://reddit.com/r/crm/comments/abc', title: 'Best CRM? : r/crm' },
  ],
  c3: [
    { url: 'https://acme.example/pricing?utm_source=x' },
    { url: 'https://techcrunch.com/2026/11/01/crm-news', title: 'CRM news roundup' },
  ],
};

const TABLE = `
P1 chatgpt US A c1
P1 perplexity US B c2
P2 chatgpt US C c0
P2 perplexity GB D c3
P3 chatgpt GB E c1
P3 perplexity US A c0
P1 chatgpt GB B c0
P2 chatgpt US A c2
P1 chatgpt US E c3
P1 perplexity GB C c1
P2 perplexity US A c1
P3 chatgpt US B c2
P3 perplexity GB D c0
P2 chatgpt GB A c3
P1 perplexity US C c2
P3 chatgpt US E c0
P1 chatgpt US A c0
P2 perplexity US B c1
P3 chatgpt GB C c3
P1 perplexity GB E c2
P2 chatgpt US D c1
P3 perplexity US A c3
P1 chatgpt GB B c1
P2 perplexity GB C c0`;

export const WORKSPACE_BRAND = {
  name: 'Acme',
  slug: 'acme',
  industry: 'Software',
  region: 'US',
  domains: ['acme.example'],
  aliases: ['Acme Inc'],
  competitors: [
    { name: 'Globex', domains: ['globex.example'] },
    { name: 'Initech', domains: ['initech.example'] },
  ],
  topics: [
    {
      name: 'CRM',
      prompts: [
        { text: 'P1 best crm', platforms: ['chatgpt', 'perplexity'] },
        { text: 'P2 crm pricing', platforms: ['chatgpt', 'perplexity'] },
      ],
    },
    { name: 'Email', prompts: [{ text: 'P3 email tools', platforms: ['chatgpt', 'perplexity'] }] },
  ],
};

const MODEL: Record<string, string> = { chatgpt: 'gpt-4o', perplexity: 'sonar' };

/** The answer lines, given the prompt ids [P1, P2, P3] of the applied workspace. */
export function goldenAnswers(promptIds: string[]) {
  const rows = TABLE.trim()
    .split('\n')
    .map((line, i) => {
      const [prompt, platform, region, text, cites] = line.trim().split(/\s+/);
      const day = DAYS[Math.floor(i / 8)];
      const hour = String(6 + 2 * (i % 8)).padStart(2, '0');
      return {
        prompt_id: promptIds[Number(prompt.slice(1)) - 1],
        platform,
        model: MODEL[platform],
        region,
        mode: 'standard',
        collected_at: `${day}T${hour}:00:00Z`,
        text: TEXTS[text],
        citations: CITES[cites],
      };
    });
  const shopping = [
    {
      prompt_id: promptIds[0],
      platform: 'chatgpt',
      model: 'gpt-4o',
      region: 'US',
      mode: 'shopping',
      collected_at: '2026-11-02T06:30:00Z',
      text: 'Acme Acme Acme Globex',
      citations: [{ url: 'https://acme.example/shop' }],
      products: [
        {
          position: 1,
          title: 'Acme CRM Pro',
          brand: 'Acme',
          price: '$1,299.99',
          merchant_url: 'https://shop.example/p/1',
          rating: 4.5,
          review_count: 100,
        },
        {
          position: 2,
          title: 'Globex Suite',
          brand: 'Globex',
          price: 49,
          currency: 'EUR',
          merchant_url: 'https://www.globex.example/buy',
        },
      ],
    },
    {
      prompt_id: promptIds[1],
      platform: 'perplexity',
      model: 'sonar',
      region: 'US',
      mode: 'shopping',
      collected_at: '2026-11-09T07:00:00Z',
      text: 'Acme',
      citations: [],
      products: [
        {
          position: 1,
          title: 'Acme CRM Pro',
          brand: 'Acme',
          price: '€1.199,00',
          merchant_url: 'https://acme.example/buy',
          rating: 4.0,
          review_count: 50,
        },
      ],
    },
  ];
  return [...rows, ...shopping];
}
