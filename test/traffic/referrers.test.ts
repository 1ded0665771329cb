// The classification table: which referrers and utm_source values are AI platforms, and which
// user agents are crawlers.
// test-process: shared
import test from 'ava';
import { buildTable, classifyVisit, platformOfHost, platformOfUtm, platforms } from '../../src/traffic/referrers.ts';
import { isCrawler } from '../../src/traffic/collect.ts';
import table from '../../src/traffic/data/ai-platforms.json' with { type: 'json' };

const PAGE = 'https://acme.example/pricing';

test('each platform host maps to its slug; the slugs of docs/api.md are used where one exists', (t) => {
  const cases: [string, string][] = [
    ['chatgpt.com', 'chatgpt'],
    ['chat.openai.com', 'chatgpt'],
    ['perplexity.ai', 'perplexity'],
    ['gemini.google.com', 'gemini'],
    ['copilot.microsoft.com', 'copilot'],
    ['claude.ai', 'claude'],
    ['grok.com', 'grok'],
    ['chat.deepseek.com', 'deepseek'],
    ['meta.ai', 'meta_ai'],
    ['you.com', 'you'],
  ];
  for (const [host, slug] of cases) t.is(platformOfHost(host), slug, host);
});

test('sub-domains match by whole labels, case and a trailing dot aside', (t) => {
  t.is(platformOfHost('www.perplexity.ai'), 'perplexity');
  t.is(platformOfHost('labs.perplexity.ai'), 'perplexity');
  t.is(platformOfHost('WWW.ChatGPT.com.'), 'chatgpt');
  t.is(platformOfHost('a.b.claude.ai'), 'claude');
});

test('look-alike hosts are not platforms (never substring matching)', (t) => {
  for (const host of [
    'claude.example.workers.dev',
    'notchatgpt.com',
    'chatgpt.com.evil.io',
    'perplexity.ai-search.com',
    'myclaude.ai',
    'openai.com',
    'mychat.openai.com',
    'google.com',
    'www.google.com',
    'gemini.google.com.example',
    'microsoft.com',
    'bing.com',
    'chatgpt',
    'com',
    '',
  ])
    t.is(platformOfHost(host), undefined, host);
});

test('utm_source: listed values exactly, or a platform host; nothing else', (t) => {
  t.is(platformOfUtm('chatgpt.com'), 'chatgpt');
  t.is(platformOfUtm('Perplexity'), 'perplexity');
  t.is(platformOfUtm(' claude '), 'claude');
  t.is(platformOfUtm('www.perplexity.ai'), 'perplexity');
  for (const v of [
    'notchatgpt',
    'chatgpt-clone',
    'perplexity.ai.evil.com',
    'chatgpt.com.evil.io',
    'google',
    'newsletter',
    '',
  ]) {
    t.is(platformOfUtm(v), undefined, v);
  }
});

test('classifyVisit: referrer first, then utm_source; the path never carries the query', (t) => {
  t.deepEqual(classifyVisit(`${PAGE}?utm_campaign=x&email=a@b.example#faq`, 'https://chatgpt.com/'), {
    platform: 'chatgpt',
    referrerHost: 'chatgpt.com',
    path: '/pricing',
  });
  t.deepEqual(classifyVisit(`${PAGE}?utm_source=chatgpt.com`, ''), {
    platform: 'chatgpt',
    referrerHost: '',
    path: '/pricing',
  });
  t.deepEqual(classifyVisit(`${PAGE}?utm_source=perplexity`, 'https://www.google.com/search?q=x'), {
    platform: 'perplexity',
    referrerHost: 'www.google.com',
    path: '/pricing',
  });
  t.is(
    classifyVisit(`${PAGE}?utm_source=chatgpt.com`, 'https://claude.ai/chat/1')?.platform,
    'claude',
    'the referrer wins',
  );
  t.is(classifyVisit('https://acme.example', 'https://grok.com/')?.path, '/');
  t.is(classifyVisit('https://acme.example/caf%C3%A9', 'https://grok.com/')?.path, '/caf%C3%A9');
});

test('classifyVisit drops non-AI, malformed and non-web input', (t) => {
  t.is(classifyVisit(PAGE, 'https://www.google.com/'), undefined);
  t.is(classifyVisit(PAGE, ''), undefined);
  t.is(classifyVisit(PAGE, 'https://claude.example.workers.dev/'), undefined);
  t.is(classifyVisit(PAGE, 'not a url'), undefined);
  t.is(classifyVisit(PAGE, 'android-app://com.openai.chatgpt/'), undefined);
  t.is(classifyVisit('ftp://acme.example/x', 'https://chatgpt.com/'), undefined);
  t.is(classifyVisit('nonsense', 'https://chatgpt.com/'), undefined);
});

test('the data file is valid, and a host or utm value listed twice is refused', (t) => {
  t.true(platforms.hosts.size >= 10);
  const slugs = new Set(table.platforms.map((p) => p.platform));
  for (const s of ['chatgpt', 'perplexity', 'gemini', 'copilot', 'claude', 'grok', 'deepseek', 'meta_ai'])
    t.true(slugs.has(s), s);
  const dup = {
    platforms: [
      { platform: 'a_one', name: 'A', hosts: ['a.example'], utm_sources: [] },
      { platform: 'b_two', name: 'B', hosts: ['a.example'], utm_sources: [] },
    ],
  };
  t.throws(() => buildTable(dup), { message: /a\.example is listed twice/ });
  t.throws(() => buildTable({ platforms: [{ platform: 'x', name: 'X', hosts: ['Not A Host'], utm_sources: [] }] }));
});

test('crawlers and agentless requests are never visits; browsers are', (t) => {
  for (const ua of [
    'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; GPTBot/1.1; +https://openai.com/gptbot)',
    'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko); compatible; ChatGPT-User/1.0; +https://openai.com/bot',
    'Mozilla/5.0 (compatible; PerplexityBot/1.0; +https://perplexity.ai/perplexitybot)',
    'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)',
    'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/126.0.0.0 Safari/537.36',
    'curl/8.5.0',
    '',
    undefined,
  ])
    t.true(isCrawler(ua), String(ua));
  for (const ua of [
    'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36',
    'Mozilla/5.0 (Macintosh; Intel Mac OS X 14_5) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Safari/605.1.15',
    'Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0',
    'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1',
  ])
    t.false(isCrawler(ua), ua);
});
