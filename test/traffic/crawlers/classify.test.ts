// Classification of every listed bot by its user agent, and the verdict on its address.
// User agents are written as the providers' pages listed in src/traffic/data/ai-bots.json give them
// (where a page names only the token, in the `compatible; Token/1.0` form crawlers use).
// test-process: shared
import test from 'ava';
import list from '../../../src/traffic/data/ai-bots.json' with { type: 'json' };
import { botTable, buildBotTable } from '../../../src/traffic/crawlers/bots.ts';
import { buildRangeTable, parseAddress, rangeTable } from '../../../src/traffic/crawlers/ranges.ts';

const UAS: Record<string, string> = {
  GPTBot: 'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko); compatible; GPTBot/1.3; +https://openai.com/gptbot',
  'OAI-SearchBot':
    'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36; compatible; OAI-SearchBot/1.3; +https://openai.com/searchbot',
  'ChatGPT-User':
    'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko); compatible; ChatGPT-User/1.0; +https://openai.com/bot',
  ClaudeBot: 'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; ClaudeBot/1.0; +claudebot@anthropic.com)',
  'Claude-User':
    'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; Claude-User/1.0; +Claude-User@anthropic.com)',
  'Claude-SearchBot':
    'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; Claude-SearchBot/1.0; +Claude-SearchBot@anthropic.com)',
  PerplexityBot:
    'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; PerplexityBot/1.0; +https://perplexity.ai/perplexitybot)',
  'Perplexity-User':
    'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; Perplexity-User/1.0; +https://perplexity.ai/perplexity-user)',
  Bytespider:
    'Mozilla/5.0 (Linux; Android 5.0) AppleWebKit/537.36 (KHTML, like Gecko) Mobile Safari/537.36 (compatible; Bytespider; spider-feedback@bytedance.com)',
  CCBot: 'CCBot/2.0 (https://commoncrawl.org/faq/)',
  'meta-externalagent': 'meta-externalagent/1.1 (+https://developers.facebook.com/docs/sharing/webmasters/crawler)',
  'meta-externalfetcher': 'meta-externalfetcher/1.1 (+https://developers.facebook.com/docs/sharing/webmasters/crawler)',
  FacebookBot:
    'Mozilla/5.0 (compatible; FacebookBot/1.0; +https://developers.facebook.com/docs/sharing/webmasters/facebookbot/)',
  Amazonbot:
    'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; Amazonbot/0.1; +https://developer.amazon.com/support/amazonbot) Chrome/119.0.6045.214 Safari/537.36',
  DuckAssistBot: 'DuckAssistBot/1.2; (+http://duckduckgo.com/duckassistbot.html)',
  'MistralAI-User':
    'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; MistralAI-User/1.0; +https://docs.mistral.ai/robots)',
};

const EXPECTED: Record<string, [string, string]> = {
  GPTBot: ['OpenAI', 'ai_training'],
  'OAI-SearchBot': ['OpenAI', 'ai_search'],
  'ChatGPT-User': ['OpenAI', 'ai_assistant'],
  ClaudeBot: ['Anthropic', 'ai_training'],
  'Claude-User': ['Anthropic', 'ai_assistant'],
  'Claude-SearchBot': ['Anthropic', 'ai_search'],
  PerplexityBot: ['Perplexity', 'ai_search'],
  'Perplexity-User': ['Perplexity', 'ai_assistant'],
  Bytespider: ['ByteDance', 'ai_training'],
  CCBot: ['Common Crawl', 'ai_training'],
  'meta-externalagent': ['Meta', 'ai_training'],
  'meta-externalfetcher': ['Meta', 'ai_agent'],
  FacebookBot: ['Meta', 'ai_training'],
  Amazonbot: ['Amazon', 'ai_training'],
  DuckAssistBot: ['DuckDuckGo', 'ai_assistant'],
  'MistralAI-User': ['Mistral AI', 'ai_assistant'],
};

for (const [name, ua] of Object.entries(UAS)) {
  test(`${name} is recognised with its provider and type`, (t) => {
    const [provider, bot_type] = EXPECTED[name];
    t.deepEqual(botTable.classify(ua), { name, provider, bot_type });
    // Case does not matter: logs and proxies rewrite it.
    t.is(botTable.classify(ua.toLowerCase())?.name, name);
  });
}

test('every bot of the list that appears in logs has a user agent above, and each entry its source', (t) => {
  const inLogs = list.bots.filter((b) => b.user_agent_token !== null).map((b) => b.name);
  t.deepEqual(inLogs.sort(), Object.keys(UAS).sort());
  for (const b of list.bots) {
    t.regex(b.source, /^https:\/\//, b.name);
    t.is(b.taken, '2026-11-25', b.name);
  }
});

test('robots.txt-only tokens are listed but never match a request', (t) => {
  for (const name of ['Google-Extended', 'Applebot-Extended']) {
    t.truthy(botTable.bots.find((b) => b.name === name));
    t.is(botTable.classify(`Mozilla/5.0 (compatible; ${name}/1.0)`), undefined);
  }
});

test('search engines, link previews, browsers and look-alikes are not AI bots', (t) => {
  for (const ua of [
    'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)',
    'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_5) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/13.1.1 Safari/605.1.15 (Applebot/0.1; +http://www.apple.com/go/applebot)',
    'facebookexternalhit/1.1 (+http://www.facebook.com/externalhit_uatext.php)',
    'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36',
    'Mozilla/5.0 (compatible; NotGPTBot/1.0)',
    'Mozilla/5.0 (compatible; GPTBotty/1.0)',
    '',
  ]) {
    t.is(botTable.classify(ua), undefined, ua);
  }
});

test('a list naming a bot or a token twice is refused', (t) => {
  const bot = list.bots[0];
  t.throws(() => buildBotTable({ bots: [bot, bot] }), { message: /listed twice/ });
  t.throws(() => buildBotTable({ bots: [bot, { ...bot, name: 'Other' }] }), {
    message: /token GPTBot is listed twice/,
  });
});

const addr = (ip: string) => {
  const a = parseAddress(ip);
  if (!a) throw new Error(ip);
  return a;
};

test('verified inside the published ranges, spoofed outside, unverified without ranges', (t) => {
  // 20.171.206.0/24 and 4.151.71.176/28 are in OpenAI's gptbot.json and chatgpt-user.json.
  t.is(rangeTable.verify('GPTBot', addr('20.171.206.77')), 'verified');
  t.is(rangeTable.verify('GPTBot', addr('20.171.208.1')), 'spoofed');
  t.is(rangeTable.verify('ChatGPT-User', addr('4.151.71.191')), 'verified');
  t.is(rangeTable.verify('ChatGPT-User', addr('4.151.71.192')), 'spoofed');
  // A GPTBot address does not verify another bot of the same provider.
  t.is(rangeTable.verify('ChatGPT-User', addr('20.171.206.77')), 'spoofed');
  // Anthropic's list covers its three bots.
  for (const bot of ['ClaudeBot', 'Claude-User', 'Claude-SearchBot']) {
    t.is(rangeTable.verify(bot, addr('216.73.219.255')), 'verified', bot);
    t.is(rangeTable.verify(bot, addr('216.73.220.0')), 'spoofed', bot);
  }
  t.is(rangeTable.verify('PerplexityBot', addr('18.97.9.100')), 'verified');
  t.is(rangeTable.verify('Perplexity-User', addr('18.97.9.100')), 'spoofed');
  // IPv6 from a bot whose ranges are IPv4 only is outside them; an IPv4-mapped address is its IPv4.
  t.is(rangeTable.verify('GPTBot', addr('2001:db8::1')), 'spoofed');
  t.is(rangeTable.verify('GPTBot', addr('::ffff:20.171.206.77')), 'verified');
  for (const bot of ['Amazonbot', 'CCBot', 'Bytespider', 'DuckAssistBot', 'meta-externalagent', 'MistralAI-User']) {
    t.is(rangeTable.verify(bot, addr('20.171.206.77')), 'unverified', bot);
  }
});

test('IPv6 ranges match by prefix', (t) => {
  const table = buildRangeTable({
    about: 'test',
    taken: '2026-11-25',
    lists: [
      { bots: ['X'], source: 'https://example.test/x.json', taken: '2026-11-25', prefixes: ['2001:db8:10::/48'] },
    ],
  });
  t.is(table.verify('X', addr('2001:db8:10:ffff::1')), 'verified');
  t.is(table.verify('X', addr('2001:db8:11::1')), 'spoofed');
  t.is(table.verify('X', addr('192.0.2.1')), 'spoofed');
});

test('addresses are read strictly', (t) => {
  for (const bad of ['256.1.1.1', '1.2.3', '01.2.3.4', 'example.com', '1.2.3.4.5', '::g', '']) {
    t.is(parseAddress(bad), undefined, bad);
  }
  t.deepEqual(parseAddress('0.0.0.1'), { v4: 1 });
});
