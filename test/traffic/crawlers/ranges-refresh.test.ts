// The documented refresh of the bundled IP ranges (scripts/crawler-ranges.ts), run as a command on a
// copy of the data file: a provider's JSON replaces its bot's list, plain text works too, and a bad
// range or a list shared by several bots named only in part is refused without writing.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import test from 'ava';
import { buildRangeTable, parseAddress } from '../../../src/traffic/crawlers/ranges.ts';

const ROOT = path.resolve(import.meta.dirname, '../../..');
const DATA = path.join(ROOT, 'src/traffic/data/ai-bot-ranges.json');

function run(args: string[]) {
  return spawnSync(process.execPath, ['--import', 'tsx', path.join(ROOT, 'scripts/crawler-ranges.ts'), ...args], {
    cwd: ROOT,
    encoding: 'utf8',
  });
}

function workspace() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'crawler-ranges-'));
  const data = path.join(dir, 'ranges.json');
  fs.copyFileSync(DATA, data);
  return { dir, data };
}

test('a provider JSON file replaces the list of its bot', (t) => {
  const { dir, data } = workspace();
  const file = path.join(dir, 'gptbot.json');
  fs.writeFileSync(
    file,
    JSON.stringify({
      creationTime: '2026-11-25T00:00:00',
      prefixes: [{ ipv4Prefix: '192.0.2.0/24' }, { ipv6Prefix: '2001:db8::/32' }],
    }),
  );
  const r = run([
    file,
    '--bot',
    'GPTBot',
    '--source',
    'https://openai.com/gptbot.json',
    '--taken',
    '2026-11-25',
    '--data',
    data,
  ]);
  t.is(r.status, 0, r.stderr);
  t.deepEqual(JSON.parse(r.stdout), { data, bots: ['GPTBot'], prefixes: 2 });
  const table = buildRangeTable(JSON.parse(fs.readFileSync(data, 'utf8')));
  t.is(table.verify('GPTBot', parseAddress('192.0.2.9')!), 'verified');
  t.is(table.verify('GPTBot', parseAddress('2001:db8::5')!), 'verified');
  t.is(table.verify('GPTBot', parseAddress('20.171.206.77')!), 'spoofed', 'the old ranges are gone');
  t.is(table.verify('ChatGPT-User', parseAddress('4.151.71.180')!), 'verified', 'other lists are kept');
});

test('plain text adds a list for a bot that had none', (t) => {
  const { dir, data } = workspace();
  const file = path.join(dir, 'amazonbot.txt');
  fs.writeFileSync(file, '# Amazonbot\n198.51.100.0/24\n\n203.0.113.7/32 # one address\n');
  const r = run([
    file,
    '--bot',
    'Amazonbot',
    '--source',
    'https://developer.amazon.com/amazonbot/ip-addresses/',
    '--data',
    data,
  ]);
  t.is(r.status, 0, r.stderr);
  const table = buildRangeTable(JSON.parse(fs.readFileSync(data, 'utf8')));
  t.is(table.verify('Amazonbot', parseAddress('203.0.113.7')!), 'verified');
  t.is(table.verify('Amazonbot', parseAddress('203.0.113.8')!), 'spoofed');
});

test('a bad range or a shared list named in part is refused and nothing is written', (t) => {
  const { dir, data } = workspace();
  const before = fs.readFileSync(data, 'utf8');
  const bad = path.join(dir, 'bad.txt');
  fs.writeFileSync(bad, '192.0.2.0/24\n10.0.0.0/33\n');
  const r1 = run([bad, '--bot', 'GPTBot', '--source', 'https://openai.com/gptbot.json', '--data', data]);
  t.is(r1.status, 1);
  t.regex(r1.stderr, /"10.0.0.0\/33" is not a CIDR range/);
  const good = path.join(dir, 'good.txt');
  fs.writeFileSync(good, '192.0.2.0/24\n');
  const r2 = run([good, '--bot', 'ClaudeBot', '--source', 'https://claude.com/crawling/bots.json', '--data', data]);
  t.is(r2.status, 1);
  t.regex(r2.stderr, /share a list: name all of them with --bot/);
  t.is(fs.readFileSync(data, 'utf8'), before);
});
