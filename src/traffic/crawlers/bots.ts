// Which AI crawler or agent a User-Agent header names, from the bundled list data/ai-bots.json
// (docs/crawlers.md: each entry's provider, type and the provider's page it was taken from).
//
// A bot is recognised by its token as a whole word of the header, case-insensitively: `GPTBot/1.3`
// and `compatible; ClaudeBot/1.0` match, `NotGPTBotX` does not. One regular expression holds every
// token, so a log line costs one scan of its user agent whatever the list's length. Tokens that are
// robots.txt controls only (Google-Extended, Applebot-Extended: the providers say no request ever
// carries them) are listed for completeness and never match.
import { z } from 'zod';
import list from '../data/ai-bots.json' with { type: 'json' };

export const BOT_TYPES = ['ai_assistant', 'ai_search', 'ai_training', 'ai_agent'] as const;
export type BotType = (typeof BOT_TYPES)[number];

const BotList = z.object({
  bots: z
    .array(
      z.object({
        name: z.string().regex(/^[A-Za-z][A-Za-z0-9-]{1,63}$/),
        provider: z.string().min(1),
        bot_type: z.enum(BOT_TYPES),
        user_agent_token: z
          .string()
          .regex(/^[A-Za-z][A-Za-z0-9-]{1,63}$/)
          .nullable(),
        source: z.url(),
        taken: z.iso.date(),
      }),
    )
    .min(1),
});

export interface Bot {
  name: string;
  provider: string;
  bot_type: BotType;
}

export interface BotTable {
  /** Every listed bot, robots.txt-only tokens included. */
  bots: readonly Bot[];
  /** The bot a user agent names, or undefined. */
  classify(userAgent: string): Bot | undefined;
}

/** Validates the list and compiles its matcher; a name or token listed twice is a mistake in the file. */
export function buildBotTable(raw: unknown): BotTable {
  const parsed = BotList.parse(raw);
  const byToken = new Map<string, Bot>();
  const names = new Set<string>();
  const bots: Bot[] = [];
  for (const b of parsed.bots) {
    if (names.has(b.name)) throw new Error(`ai-bots.json: ${b.name} is listed twice`);
    names.add(b.name);
    const bot = { name: b.name, provider: b.provider, bot_type: b.bot_type };
    bots.push(bot);
    if (b.user_agent_token === null) continue;
    const token = b.user_agent_token.toLowerCase();
    if (byToken.has(token)) throw new Error(`ai-bots.json: token ${b.user_agent_token} is listed twice`);
    byToken.set(token, bot);
  }
  // Longest first, so a token that is the start of another can never shadow it. Tokens hold letters,
  // digits and hyphens only (checked above), none of which a regular expression reads specially.
  const tokens = [...byToken.keys()].sort((a, b) => b.length - a.length);
  const re = new RegExp(`(?<![a-z0-9])(${tokens.join('|')})(?![a-z0-9])`, 'i');
  return {
    bots,
    classify(userAgent) {
      const m = re.exec(userAgent);
      return m ? byToken.get(m[1].toLowerCase()) : undefined;
    },
  };
}

export const botTable = buildBotTable(list);
