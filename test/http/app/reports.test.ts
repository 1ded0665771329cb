// Reports by email (docs/app.md, "Reports by email"): a person subscribes in Settings > Reports,
// `answerscope jobs run send-reports` mails every report whose period has ended (a new subscription
// has one due) to an SMTP receiver started here, HTML with a plain-text part whose figures are the
// API's own for the same filters, with List-Unsubscribe one-click (RFC 8058) that ends it.
// test-process: shared
import type { AddressInfo } from 'node:net';
import test from 'ava';
import { SMTPServer } from 'smtp-server';
import { get, ingestLines, startTestServer, type TestServer } from '../../helpers/server.ts';
import { cli } from '../../helpers/cli.ts';
import { appCall, person, session } from './helpers.ts';
import { addDays } from '../../../src/instant.ts';

let server: TestServer;
let smtp: SMTPServer;
const mails: { to: string; raw: string }[] = [];

test.before(async () => {
  smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    onData(stream, session, done) {
      let raw = '';
      stream.on('data', (c) => (raw += c));
      stream.on('end', () => {
        mails.push({ to: session.envelope.rcptTo.map((r) => r.address).join(','), raw });
        done();
      });
    },
  });
  await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
  const port = (smtp.server.address() as AddressInfo).port;
  server = await startTestServer({ SMTP_URL: `smtp://127.0.0.1:${port}` });
});

test.after.always(async () => {
  await server?.stop();
  await new Promise<void>((resolve) => (smtp ? smtp.close(() => resolve()) : resolve()));
});

/** A header of a raw message, unfolded. */
const header = (raw: string, name: string) => {
  const head = raw.split(/\r?\n\r?\n/)[0].replace(/\r?\n[ \t]+/g, ' ');
  return new RegExp(`^${name}: (.*)$`, 'im').exec(head)?.[1];
};

/** The body of the part of `type`, quoted-printable decoded. */
function part(raw: string, type: string): string {
  const at = raw.indexOf(`Content-Type: ${type}`);
  if (at < 0) return '';
  const rest = raw.slice(at);
  const body = rest.slice(rest.search(/\r?\n\r?\n/)).replace(/^\s+/, '');
  const end = body.search(/\r?\n--/);
  const encoded = end < 0 ? body : body.slice(0, end);
  const bytes = encoded
    .replace(/=\r?\n/g, '')
    .replace(/=([0-9A-F]{2})/g, (_, h) => String.fromCharCode(Number.parseInt(h, 16)));
  return Buffer.from(bytes, 'latin1').toString('utf8');
}

test('a subscription gets its report by mail: the API figures, the brand in the subject, and a one-click unsubscribe', async (t) => {
  const who = await person(server);
  const yesterday = addDays(new Date().toISOString().slice(0, 10), -1);
  const before = addDays(yesterday, -1);
  // The day before names Globex more, yesterday names Acme more; a forum is cited only beside Globex.
  const answers = (day: string, acme: number, globex: number) =>
    Array.from({ length: acme + globex }, (_, i) => ({
      prompt_id: who.promptIds[0],
      platform: 'chatgpt',
      model: 'gpt-4o',
      region: 'US',
      collected_at: `${day}T10:00:${String(i).padStart(2, '0')}Z`,
      text: i < acme ? `Acme is the best CRM (answer ${i}).` : `Globex leads here (answer ${i}).`,
      citations: i < acme ? [] : [{ url: `https://forum.example/t/${i}`, title: 'Forum thread' }],
    }));
  await ingestLines(server, [...answers(before, 5, 15), ...answers(yesterday, 15, 5)]);

  const s = await session(server, who);
  // Bad input is named by its field and writes nothing.
  const bad = await appCall(server, s, '/reports', { brand_id: who.brandId, frequency: 'monthly', hour: 7 });
  t.is(bad.status, 400);
  t.like(bad.body, { error: 'Frequency must be daily or weekly', field: 'frequency' });
  const badHour = await appCall(server, s, '/reports', { brand_id: who.brandId, frequency: 'daily', hour: 24 });
  t.like(badHour.body, { field: 'hour' });
  t.deepEqual((await appCall(server, s, '/reports')).body.subscriptions, []);

  const made = await appCall(server, s, '/reports', { brand_id: who.brandId, frequency: 'daily', hour: 7 });
  t.is(made.status, 200, JSON.stringify(made.body));
  t.true((await appCall(server, s, '/reports')).body.mail_configured);

  const run = await cli(['jobs', 'run', 'send-reports'], server.env);
  t.is(run.code, 0, run.stderr);
  t.true(run.json.sent >= 1);
  const mail = mails.find((m) => m.to === who.email);
  if (!mail) return t.fail('no mail reached the receiver');

  t.regex(header(mail.raw, 'Subject') ?? '', /Acme/);
  const unsubscribe = /^<(https?:\/\/[^>]+)>$/.exec(header(mail.raw, 'List-Unsubscribe') ?? '')?.[1];
  t.truthy(unsubscribe, 'List-Unsubscribe is an http(s) address');
  t.is(header(mail.raw, 'List-Unsubscribe-Post'), 'List-Unsubscribe=One-Click');
  t.regex(header(mail.raw, 'Content-Type') ?? '', /multipart\/alternative/);
  const text = part(mail.raw, 'text/plain');
  const html = part(mail.raw, 'text/html');

  // The six figures by their card names, as the API gives them for the same dates.
  const filters = { brand_id: who.brandId, date_from: yesterday, date_to: yesterday };
  const change = (await get(server, `/api/v1/visibility-change?${new URLSearchParams(filters)}`, who.key)).body;
  const names: Record<string, string> = {
    ai_visibility_score: 'AI visibility score',
    mention_rate: 'Mention rate',
    citation_rate: 'Citation rate',
    share_of_voice: 'Share of voice',
    average_position: 'Average position',
    net_sentiment: 'Net sentiment',
  };
  const words: Record<string, string> = {
    up: 'up',
    down: 'down',
    within_noise: 'within noise',
    not_enough_data: 'not enough data',
  };
  for (const m of change.metrics) {
    const line = text.split('\n').find((l) => l.startsWith(`${names[m.metric]}: `)) ?? '';
    const value = line.slice(names[m.metric].length + 2).split(/[ %(]/)[0];
    t.is(value, m.current === null ? '—' : String(m.current), m.metric);
    t.true(line.includes(words[m.verdict]), `${m.metric}: ${line}`);
    if (m.change !== null) t.true(line.includes(m.change > 0 ? `+${m.change}` : String(m.change)), line);
    t.true(html.includes(names[m.metric]), `${m.metric} in the HTML part`);
  }
  // The competitor that moved, and the gap domain, as competitor-comparison and citation-gap give them.
  const now = (await get(server, `/api/v1/competitor-comparison?${new URLSearchParams(filters)}`, who.key)).body;
  const globex = now.competitors.find((c: any) => c.name === 'Globex');
  t.true(text.includes(`Globex: ${globex.ai_visibility_score} (`), text);
  const gap = (await get(server, `/api/v1/citation-gap?${new URLSearchParams({ ...filters, limit: '5' })}`, who.key))
    .body;
  t.true(gap.domains.length > 0);
  for (const d of gap.domains) t.true(text.includes(`${d.domain}: ${d.gap_answers} answers`), d.domain);
  // Every link leads into the app at the report's dates.
  const overview = `/app/brands/${who.brandId}?date_from=${yesterday}&date_to=${yesterday}`;
  t.true(text.includes(overview), 'the overview at the same filters');
  t.true(html.includes(overview.replace(/&/g, '&amp;')));

  // Sent once: a second run finds nothing due for this subscription.
  const count = mails.filter((m) => m.to === who.email).length;
  const again = await cli(['jobs', 'run', 'send-reports'], server.env);
  t.is(again.code, 0, again.stderr);
  t.is(mails.filter((m) => m.to === who.email).length, count);

  // GET shows a button and changes nothing (mail scanners open links); the one-click POST ends it,
  // without a session; a made-up token ends nothing.
  const url = new URL(unsubscribe as string);
  const local = `${server.url}${url.pathname}`;
  t.is((await fetch(local)).status, 200);
  t.is((await appCall(server, s, '/reports')).body.subscriptions.length, 1);
  const guessed = await fetch(`${server.url}/app/reports/unsubscribe/${'A'.repeat(43)}`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: 'List-Unsubscribe=One-Click',
  });
  t.is(guessed.status, 404);
  const oneClick = await fetch(local, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: 'List-Unsubscribe=One-Click',
  });
  t.is(oneClick.status, 200);
  t.deepEqual((await appCall(server, s, '/reports')).body.subscriptions, []);
});
