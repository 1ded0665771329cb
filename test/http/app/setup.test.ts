// The first run (docs/app.md "First run"): on a fresh store the setup address, made by
// `answerscope setup-link` (through the running server's admin channel) or printed by `npm start`,
// creates the organization and its first admin and signs them in; a new link voids the old; a
// form from another site or with bad input changes nothing; two forms at once make one
// organization; afterwards /app/setup answers 404 and no new link is made.
// test-process: shared
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import test from 'ava';
import { startTestServer, type TestServer } from '../../helpers/server.ts';
import { cli } from '../../helpers/cli.ts';
import { appCall } from './helpers.ts';
import { SETUP_DONE } from '../../../src/tenancy/setup.ts';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
let server: TestServer;

test.before(async () => {
  // A server of its own: a fresh store: setup is open only until the first organization.
  server = await startTestServer({}, { ownServer: true });
});
test.after.always(async () => {
  await server?.stop();
});

const post = (fields: Record<string, string>, headers: Record<string, string> = {}) =>
  fetch(`${server.url}/app/setup`, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
    body: new URLSearchParams(fields),
  });

async function link(): Promise<string> {
  const out = await cli(['setup-link'], server.env);
  if (out.code !== 0) throw new Error(out.stderr);
  return new URL(out.json.setup_url).searchParams.get('code')!;
}

const organizations = async () =>
  Number((await server.stores.pg.query<{ n: string }>('SELECT count(*) AS n FROM organizations')).rows[0].n);

test.serial('setup-link makes a code that opens the form, and a new link voids the old', async (t) => {
  const old = await link();
  t.is((await fetch(`${server.url}/app/setup?code=${old}`)).status, 200);
  const code = await link();
  t.not(code, old);
  t.is((await fetch(`${server.url}/app/setup?code=${old}`)).status, 404);
  t.is((await fetch(`${server.url}/app/setup`)).status, 404);
  const page = await fetch(`${server.url}/app/setup?code=${code}`);
  t.is(page.status, 200);
  const html = await page.text();
  for (const label of ['Organization', 'Email', 'Password'])
    t.regex(html, new RegExp(`<label for="\\w+">${label}</label>`));
  t.truthy(page.headers.get('content-security-policy'));
});

test.serial('a form from another site, or with bad input, creates nothing and keeps the code', async (t) => {
  const code = await link();
  const good = { code, organization: 'Trailpeak', email: 'maya@trailpeak.example', password: 'correct horse battery' };
  const forged = await post(good, { origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' });
  t.is(forged.status, 403);
  const short = await post({ ...good, password: 'short' });
  t.is(short.status, 400);
  t.regex(await short.text(), /id="password-error">Password must be at least 10 characters/);
  const email = await post({ ...good, email: 'not an address' });
  t.is(email.status, 400);
  t.regex(await email.text(), /id="email-error">Email must be an email address/);
  const nameless = await post({ ...good, organization: '  ' });
  t.regex(await nameless.text(), /id="organization-error">Organization is required/);
  t.is(await organizations(), 0);
  t.is((await fetch(`${server.url}/app/setup?code=${code}`)).status, 200);
});

test.serial('two forms at once make one organization; its admin is signed in; then setup is over', async (t) => {
  const code = await link();
  const fields = (n: number) => ({
    code,
    organization: `Trailpeak ${n}`,
    email: `maya${n}@trailpeak.example`,
    password: 'correct horse battery',
  });
  const [a, b] = await Promise.all([post(fields(1)), post(fields(2))]);
  t.deepEqual([a.status, b.status].sort(), [303, 404]);
  const won = a.status === 303 ? a : b;
  t.is(won.headers.get('location'), '/app');
  t.is(await organizations(), 1);
  const cookie = (won.headers.get('set-cookie') ?? '').split(';')[0];
  const me = await appCall(server, { cookie, csrf: '' }, '/me');
  t.is(me.body.role, 'admin');
  t.regex(me.body.organization.name, /^Trailpeak [12]$/);
  t.is((await fetch(`${server.url}/app/setup?code=${code}`)).status, 404);
  const again = await cli(['setup-link'], server.env);
  t.is(again.code, 1);
  t.is(again.stderr.trim(), SETUP_DONE);
  // The admin signs in with the password chosen.
  const signIn = await fetch(`${server.url}/app/sign-in`, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      email: `maya${a.status === 303 ? 1 : 2}@trailpeak.example`,
      password: 'correct horse battery',
    }),
  });
  t.is(signIn.status, 303);
});

test('npm start on an empty DATA_DIR prints the setup address, which opens the form', async (t) => {
  // The README's command on a directory with nothing in it: the start migrates the stores first.
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'answerscope-empty-'));
  t.deepEqual(fs.readdirSync(dataDir), []);
  // Its own process group: npm starts node under a shell, and the whole group is stopped at the end.
  const child = spawn('npm', ['start'], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', DATA_DIR: dataDir, PORT: '0', SCHEDULER: '0' },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  let output = '';
  const exited = new Promise((resolve) => child.on('exit', resolve));
  try {
    const found = await new Promise<RegExpExecArray>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no setup address within 180 s:\n${output}`)), 180_000);
      const check = (d: Buffer) => {
        output += d;
        const m = /(http:\/\/\S+)\/app\/setup\?code=([A-Za-z0-9_-]+)/.exec(output);
        if (m && /listening on/.test(output)) {
          clearTimeout(timer);
          resolve(m);
        }
      };
      child.stdout!.on('data', check);
      child.stderr!.on('data', check);
      child.on('exit', () => reject(new Error(`exited:\n${output}`)));
    });
    // One log line says it (its message and its setup_url field).
    t.is(output.split('\n').filter((l) => l.includes('/app/setup?code=')).length, 1);
    const page = await fetch(`${found[1]}/app/setup?code=${found[2]}`);
    t.is(page.status, 200);
  } finally {
    if (child.exitCode === null) process.kill(-child.pid!, 'SIGTERM');
    await exited;
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
});
