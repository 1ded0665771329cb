// The Slack form of an event, for endpoints registered with `"format": "slack"`: a Slack incoming
// webhook takes a JSON message of `text` (the notification's and screen readers' fallback) and
// `blocks` (Block Kit), and no signature (Slack incoming webhooks, https://api.slack.com/messaging/webhooks;
// blocks, https://api.slack.com/reference/block-kit/blocks; both read 2026-11-27). Slack refuses a
// message whose header text passes 150 characters, a section's text 3,000, a field's 2,000 or a
// section's fields 10, so every text here is cut to fit. The message is made from the stored event
// when it is sent: the outbox keeps one body per event, and every retry sends the same bytes.

type Block =
  | { type: 'header'; text: { type: 'plain_text'; text: string } }
  | { type: 'section'; text?: Mrkdwn; fields?: Mrkdwn[] }
  | { type: 'context'; elements: Mrkdwn[] };
type Mrkdwn = { type: 'mrkdwn'; text: string };

export interface SlackMessage {
  text: string;
  blocks: Block[];
}

const LIMITS = { header: 150, section: 3000, field: 2000, fields: 10 };

/** Slack reads &, < and > as markup (`<!channel>` notifies everyone): text from outside is escaped. */
export const escapeMarkup = (s: string) => s.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;');

const cut = (s: string, max: number) => (s.length <= max ? s : `${s.slice(0, max - 1)}…`);

const header = (text: string): Block => ({
  type: 'header',
  text: { type: 'plain_text', text: cut(text, LIMITS.header) },
});
const section = (text: string): Block => ({
  type: 'section',
  text: { type: 'mrkdwn', text: cut(text, LIMITS.section) },
});
const fields = (pairs: [string, string][]): Block => ({
  type: 'section',
  fields: pairs.slice(0, LIMITS.fields).map(([label, value]) => ({
    type: 'mrkdwn',
    text: cut(`*${label}*\n${value}`, LIMITS.field),
  })),
});
const context = (text: string): Block => ({
  type: 'context',
  elements: [{ type: 'mrkdwn', text: cut(text, LIMITS.section) }],
});

const num = (x: unknown) => (typeof x === 'number' ? String(x) : 'n/a');
const signed = (x: unknown) => (typeof x === 'number' ? (x > 0 ? `+${x}` : String(x)) : 'n/a');

interface AlertData {
  rule: { id: string; metric: string; condition: string; threshold: number; window_days: number };
  brand_id: string;
  metric: string;
  previous: number | null;
  current: number | null;
  n_previous: number;
  n_current: number;
}

const METRICS: Record<string, string> = {
  ai_visibility_score: 'AI visibility score',
  mention_rate: 'Mention rate',
  citation_rate: 'Citation rate',
  share_of_voice: 'Share of voice',
  net_sentiment: 'Net sentiment',
};

const CONDITIONS: Record<string, (threshold: number) => string> = {
  drops_by: (t) => `dropped by ${t} points or more`,
  rises_by: (t) => `rose by ${t} points or more`,
  below: (t) => `is below ${t}`,
  above: (t) => `is above ${t}`,
};

function alertMessage(d: AlertData, brandName: string): SlackMessage {
  const what =
    `${METRICS[d.metric] ?? d.metric} ` +
    `of ${brandName} ${CONDITIONS[d.rule.condition]?.(d.rule.threshold) ?? d.rule.condition}`;
  const days = `${d.rule.window_days} day${d.rule.window_days === 1 ? '' : 's'}`;
  return {
    text:
      `Alert: ${escapeMarkup(what)}: ${num(d.previous)} to ${num(d.current)} (last ${days} against ` +
      `the ${days} before)`,
    blocks: [
      header(`Alert: ${what}`),
      fields([
        ['Previous window', num(d.previous)],
        ['Current window', num(d.current)],
        ['Answers', `${d.n_previous} then ${d.n_current}`],
        ['Windows', `${days} each`],
      ]),
      context(escapeMarkup(`Rule ${d.rule.id}, brand ${d.brand_id}`)),
    ],
  };
}

interface DigestData {
  brand: { id: string; name: string };
  date: string;
  summary: { totals: Record<string, number | null> };
  change: Record<string, number | string | null>;
  confidence?: { statement?: string };
  sentiment?: { net_sentiment: number | null; change: number | null };
  top_movers: {
    prompts: { prompt_text: string; avg_visibility: number | null; change: number | null }[];
    competitors: { name: string; ai_visibility_score: number | null; change: number | null }[];
  };
  new_opportunities: { title: string; impact: string }[];
  alerts: unknown[];
}

/** Bulleted lines, as many as fit in one section. */
function list(title: string, lines: string[]): Block | null {
  if (!lines.length) return null;
  let text = `*${title}*`;
  for (const line of lines) {
    if (text.length + line.length + 3 > LIMITS.section) break;
    text += `\n• ${line}`;
  }
  return section(text);
}

function digestMessage(d: DigestData): SlackMessage {
  const t = d.summary.totals;
  const name = escapeMarkup(d.brand.name);
  const score = `AI visibility score ${num(t.aiVisibilityScore)} (${signed(
    d.change.aiVisibilityScore,
  )} on the day before)`;
  const blocks: (Block | null)[] = [
    header(`${d.brand.name}: daily digest for ${d.date}`),
    fields([
      ['AI visibility score', `${num(t.aiVisibilityScore)} (${signed(d.change.aiVisibilityScore)})`],
      ['Answers', `${num(t.resultCount)} (${signed(d.change.resultCount)})`],
      ['Mentions', `${num(t.totalMentions)} (${signed(d.change.totalMentions)})`],
      ['Citations', `${num(t.totalCitations)} (${signed(d.change.totalCitations)})`],
      ...(d.sentiment
        ? [['Net sentiment', `${num(d.sentiment.net_sentiment)} (${signed(d.sentiment.change)})`] as [string, string]]
        : []),
    ]),
    d.confidence?.statement ? section(escapeMarkup(d.confidence.statement)) : null,
    list(
      'Prompts that moved most',
      d.top_movers.prompts.map((p) => `${escapeMarkup(p.prompt_text)}: ${num(p.avg_visibility)} (${signed(p.change)})`),
    ),
    list(
      'Competitors that moved most',
      d.top_movers.competitors.map(
        (c) => `${escapeMarkup(c.name)}: ${num(c.ai_visibility_score)} (${signed(c.change)})`,
      ),
    ),
    list(
      'New content opportunities',
      d.new_opportunities.map((o) => `${escapeMarkup(o.title)} (${o.impact} impact)`),
    ),
    d.alerts.length ? section(`*Alerts fired:* ${d.alerts.length}`) : null,
    context(`${name} · ${d.date} (UTC)`),
  ];
  return { text: `Daily digest for ${name}, ${d.date}: ${score}`, blocks: blocks.filter((b) => b !== null) };
}

/**
 * The Slack message of a stored event body (`{type, timestamp, data}`); `brandName`: the alert's
 * brand, which its data names by id only.
 */
export function slackMessage(body: string, brandName?: string): SlackMessage {
  const event = JSON.parse(body) as { type: string; data: unknown };
  switch (event.type) {
    case 'alert.fired': {
      const data = event.data as AlertData;
      return alertMessage(data, brandName ?? data.brand_id);
    }
    case 'digest.daily':
      return digestMessage(event.data as DigestData);
    default:
      return {
        text: 'Test message from Answerscope',
        blocks: [section('Test message from *Answerscope*: this Slack webhook works.')],
      };
  }
}
