// Whether a hit really came from the bot it claims to be: its address against the IP ranges the
// provider publishes, bundled in data/ai-bot-ranges.json with where and when each list was taken
// (docs/crawlers.md). `verified`: inside the bot's ranges; `spoofed`: the bot has ranges and the
// address is outside them; `unverified`: no ranges are bundled for the bot.
//
// IPv4 ranges are kept as sorted [start, end] integers and searched by halves, so a check is a few
// comparisons however many ranges a provider publishes (ChatGPT-User has hundreds); IPv6 ranges,
// rare in these lists, go through ipaddr.js. An IPv4-mapped IPv6 address is checked as IPv4.
import ipaddr from 'ipaddr.js';
import { z } from 'zod';
import data from '../data/ai-bot-ranges.json' with { type: 'json' };

export const VERIFICATIONS = ['verified', 'spoofed', 'unverified'] as const;
export type Verification = (typeof VERIFICATIONS)[number];

/** A parsed address: an IPv4 one as its 32-bit value, an IPv6 one as ipaddr.js holds it. */
export type Address = { v4: number } | { v6: ipaddr.IPv6 };

const OCTET = /^(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)$/;

/** The address, or undefined when the text is not an IPv4 or IPv6 address. */
export function parseAddress(text: string): Address | undefined {
  const parts = text.includes(':') ? [] : text.split('.');
  if (parts.length === 4) {
    let n = 0;
    for (const p of parts) {
      if (!OCTET.test(p)) return undefined;
      n = n * 256 + Number(p);
    }
    return { v4: n };
  }
  if (!text.includes(':') || !ipaddr.IPv6.isValid(text)) return undefined;
  const v6 = ipaddr.IPv6.parse(text);
  if (v6.isIPv4MappedAddress()) return parseAddress(v6.toIPv4Address().toString());
  return { v6 };
}

/** `a.b.c.d/n` or an IPv6 CIDR, checked; throws naming the text otherwise. */
export function parseCidr(text: string): [ipaddr.IPv4 | ipaddr.IPv6, number] {
  try {
    return ipaddr.parseCIDR(text.trim());
  } catch {
    throw new Error(`${JSON.stringify(text)} is not a CIDR range`);
  }
}

const RangeList = z.object({
  bots: z.array(z.string().min(1)).min(1),
  source: z.url(),
  copy: z.url().optional(),
  published: z.string().optional(),
  taken: z.iso.date(),
  prefixes: z.array(z.string()).min(1),
});
export const RangeFile = z.object({ about: z.string(), taken: z.iso.date(), lists: z.array(RangeList) });
export type RangeFile = z.infer<typeof RangeFile>;

interface BotRanges {
  v4: { start: number; end: number }[];
  v6: [ipaddr.IPv6, number][];
}

export interface RangeTable {
  /** The names of the bots that have ranges. */
  bots: ReadonlySet<string>;
  verify(botName: string, address: Address): Verification;
}

function inV4(ranges: BotRanges['v4'], n: number): boolean {
  let lo = 0;
  let hi = ranges.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const r = ranges[mid];
    if (n < r.start) hi = mid - 1;
    else if (n > r.end) lo = mid + 1;
    else return true;
  }
  return false;
}

/** Merges overlapping or touching ranges so the search by halves finds any containing one. */
function merged(ranges: BotRanges['v4']): BotRanges['v4'] {
  const sorted = [...ranges].sort((a, b) => a.start - b.start);
  const out: BotRanges['v4'] = [];
  for (const r of sorted) {
    const last = out[out.length - 1];
    if (last && r.start <= last.end + 1) last.end = Math.max(last.end, r.end);
    else out.push({ ...r });
  }
  return out;
}

export function buildRangeTable(raw: unknown): RangeTable {
  const file = RangeFile.parse(raw);
  const byBot = new Map<string, BotRanges>();
  for (const list of file.lists) {
    for (const bot of list.bots) {
      const ranges = byBot.get(bot) ?? { v4: [], v6: [] };
      byBot.set(bot, ranges);
      for (const prefix of list.prefixes) {
        const [addr, bits] = parseCidr(prefix);
        if (addr.kind() === 'ipv4') {
          const base = (addr as ipaddr.IPv4).octets.reduce((n, o) => n * 256 + o, 0);
          const size = 2 ** (32 - bits);
          const start = base - (base % size);
          ranges.v4.push({ start, end: start + size - 1 });
        } else ranges.v6.push([addr as ipaddr.IPv6, bits]);
      }
    }
  }
  for (const r of byBot.values()) r.v4 = merged(r.v4);
  return {
    bots: new Set(byBot.keys()),
    verify(botName, address) {
      const ranges = byBot.get(botName);
      if (!ranges) return 'unverified';
      const inside = 'v4' in address ? inV4(ranges.v4, address.v4) : ranges.v6.some((r) => address.v6.match(r));
      return inside ? 'verified' : 'spoofed';
    },
  };
}

export const rangeTable = buildRangeTable(data);

/**
 * The CIDR ranges of a provider's published file: the JSON most providers publish
 * (`{"prefixes": [{"ipv4Prefix": ...}, {"ipv6Prefix": ...}]}`, OpenAI's, Perplexity's, Google's,
 * Apple's, DuckDuckGo's) or plain text, one range per line (`#` starts a comment). Every range is
 * checked; a file with none is refused.
 */
export function parseProviderRanges(text: string): string[] {
  const trimmed = text.replace(/^\uFEFF/, '').trim();
  let prefixes: string[];
  if (trimmed.startsWith('{')) {
    const json = JSON.parse(trimmed) as { prefixes?: unknown };
    if (!Array.isArray(json.prefixes)) throw new Error('the JSON file has no "prefixes" array');
    prefixes = json.prefixes.map((p) => {
      const v = (p as Record<string, unknown>)?.ipv4Prefix ?? (p as Record<string, unknown>)?.ipv6Prefix;
      if (typeof v !== 'string') throw new Error(`a prefix without ipv4Prefix or ipv6Prefix: ${JSON.stringify(p)}`);
      return v;
    });
  } else {
    prefixes = trimmed
      .split('\n')
      .map((l) => l.replace(/#.*/, '').trim())
      .filter(Boolean);
  }
  if (!prefixes.length) throw new Error('the file holds no ranges');
  for (const p of prefixes) parseCidr(p);
  return prefixes;
}

/** The range file with the list of these bots replaced (or added) by a freshly taken one. */
export function replaceRanges(
  file: RangeFile,
  list: { bots: string[]; source: string; copy?: string; taken: string; prefixes: string[] },
): RangeFile {
  const key = [...list.bots].sort().join(',');
  const others = file.lists.filter((l) => [...l.bots].sort().join(',') !== key);
  const overlap = others.find((l) => l.bots.some((b) => list.bots.includes(b)));
  if (overlap) throw new Error(`${overlap.bots.join(', ')} share a list: name all of them with --bot`);
  const next = { ...file, taken: list.taken, lists: [...others, list] };
  return RangeFile.parse(next);
}
