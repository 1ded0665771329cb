// Refreshes one list of bundled AI crawler IP ranges (src/traffic/data/ai-bot-ranges.json) from a
// file the provider publishes (docs/crawlers.md, "Refreshing the IP ranges"):
//
//   npm run crawler-ranges -- FILE --bot GPTBot --source https://openai.com/gptbot.json [--copy URL]
//                             [--taken YYYY-MM-DD] [--data PATH]
//
// FILE is the provider's JSON ({"prefixes": [{"ipv4Prefix"|"ipv6Prefix": ...}]}) or plain text, one
// CIDR per line. --bot may be repeated (a list several bots share, as Anthropic's); the list naming
// exactly these bots is replaced, or added. Every range is checked before the file is written.
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { parseProviderRanges, RangeFile, replaceRanges } from '../src/traffic/crawlers/ranges.ts';

const DEFAULT_DATA = path.resolve(import.meta.dirname, '../src/traffic/data/ai-bot-ranges.json');

export function refreshRanges(argv: string[]): { data: string; bots: string[]; prefixes: number } {
  const { values, positionals } = parseArgs({
    args: argv,
    options: {
      bot: { type: 'string', multiple: true },
      source: { type: 'string' },
      copy: { type: 'string' },
      taken: { type: 'string' },
      data: { type: 'string' },
    },
    allowPositionals: true,
  });
  const file = positionals[0];
  if (!file || !values.bot?.length || !values.source) {
    throw new Error('usage: crawler-ranges FILE --bot NAME [--bot NAME...] --source URL [--copy URL] [--taken DATE]');
  }
  const data = values.data ?? DEFAULT_DATA;
  const prefixes = parseProviderRanges(fs.readFileSync(file, 'utf8'));
  const current = RangeFile.parse(JSON.parse(fs.readFileSync(data, 'utf8')));
  const taken = values.taken ?? new Date().toISOString().slice(0, 10);
  const next = replaceRanges(current, { bots: values.bot, source: values.source, copy: values.copy, taken, prefixes });
  fs.writeFileSync(data, `${JSON.stringify(next, null, 2)}\n`);
  return { data, bots: values.bot, prefixes: prefixes.length };
}

if (process.argv[1] && path.resolve(process.argv[1]) === import.meta.filename) {
  try {
    process.stdout.write(`${JSON.stringify(refreshRanges(process.argv.slice(2)))}\n`);
  } catch (err) {
    process.stderr.write(`${(err as Error).message}\n`);
    process.exit(1);
  }
}
