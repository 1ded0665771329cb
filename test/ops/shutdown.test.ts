// Graceful shutdown of the real process (`node --import tsx src/main.ts`): on SIGTERM it stops
// accepting, lets the request in flight finish, flushes the visit it buffered, closes the stores
// and exits 0; a second signal exits at once. Both hold when nobody reads the log any more.
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import test, { type ExecutionContext } from 'ava';
import { loadConfig } from '../../src/config.ts';
import { openStores } from '../../src/stores/index.ts';
import { cli } from '../helpers/cli.ts';
import { migratedDataDir } from '../helpers/data-dir.ts';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const CHROME = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36';

interface Instance {
  child: ChildProcess;
  url: string;
  env: Record<string, string>;
  dataDir: string;
  exited: Promise<number | null>;
  output: () => string;
}

/** Starts the service as `npm start` does, on embedded stores in a DATA_DIR of its own, migrated already. */
async function startProcess(overrides: Record<string, string> = {}): Promise<Instance> {
  const dataDir = await migratedDataDir();
  const env = {
    PATH: process.env.PATH ?? '',
    HOME: process.env.HOME ?? '',
    DATA_DIR: dataDir,
    PORT: '0',
    SCHEDULER: '0',
    LOG_LEVEL: 'info',
    ...overrides,
  };
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    cwd: ROOT,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (d) => (output += d));
  child.stderr!.on('data', (d) => (output += d));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no start within 60 s:\n${output}`)), 60_000);
    const check = () => {
      const m = /listening on (http:\/\/\S+)/.exec(output);
      if (m) {
        clearTimeout(timer);
        resolve(m[1]);
      }
    };
    child.stdout!.on('data', check);
    child.on('exit', () => {
      clearTimeout(timer);
      reject(new Error(`exited before listening:\n${output}`));
    });
  });
  return { child, url, env, dataDir, exited, output: () => output };
}

/** A POST whose body is sent in two parts, the second when the test says. */
function slowPost(url: string, body: string) {
  const target = new URL('/api/collect', url);
  let finish!: () => void;
  const response = new Promise<{ status: number; body: string }>((resolve, reject) => {
    const req = http.request(
      target,
      {
        method: 'POST',
        headers: {
          'content-type': 'text/plain;charset=UTF-8',
          'content-length': Buffer.byteLength(body),
          'user-agent': CHROME,
        },
      },
      (res) => {
        let text = '';
        res.on('data', (d) => (text += d));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
      },
    );
    req.on('error', reject);
    req.write(body.slice(0, 10));
    finish = () => req.end(body.slice(10));
  });
  return { response, finish: () => finish() };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

test('SIGTERM: no new connections, the request in flight completes, its visit is stored, exit 0', async (t) => {
  const app = await startProcess();
  t.teardown(() => {
    app.child.kill('SIGKILL');
    fs.rmSync(app.dataDir, { recursive: true, force: true });
  });
  const site = 'as_shutdown_test';
  const workspace = path.join(app.dataDir, 'workspace.json');
  fs.writeFileSync(
    workspace,
    JSON.stringify({
      organizations: [
        {
          name: 'Shutdown Org',
          plan: 'growth',
          members: [{ email: 'shutdown@example.test' }],
          brands: [{ name: 'Acme', slug: 'acme', domains: ['acme.example'], tracking_id: site }],
        },
      ],
    }),
  );
  const applied = await cli(['apply', workspace], app.env);
  t.is(applied.code, 0, applied.stderr);
  const brandId = applied.json.organizations[0].brands[0].id;

  const beacon = slowPost(
    app.url,
    JSON.stringify({ site, url: 'https://acme.example/pricing', referrer: 'https://chatgpt.com/' }),
  );
  await sleep(300);
  app.child.kill('SIGTERM');
  await sleep(700);
  t.is(app.child.exitCode, null, 'still running while a request is in flight');
  await t.throwsAsync(fetch(`${app.url}/healthz`), undefined, 'new connections are refused');
  beacon.finish();
  t.is((await beacon.response).status, 202);
  t.is(await app.exited, 0, app.output());
  t.regex(app.output(), /"msg":"shut down"/);

  // The visit was buffered in memory when the signal came: the shutdown flushed it.
  const stores = await openStores(loadConfig({ DATA_DIR: app.dataDir }));
  try {
    const [row] = await stores.ch.system<{ n: number }>(
      'SELECT count() AS n FROM ai_visits WHERE brand_id = {b:UUID}',
      { b: brandId },
    );
    t.is(row.n, 1);
  } finally {
    await stores.close();
  }
});

test('a second signal exits at once, without waiting for the request in flight', async (t) => {
  const app = await startProcess();
  t.teardown(() => {
    app.child.kill('SIGKILL');
    fs.rmSync(app.dataDir, { recursive: true, force: true });
  });
  const beacon = slowPost(app.url, JSON.stringify({ site: 'as_nobody_site', url: 'https://x.example/', referrer: '' }));
  beacon.response.catch(() => {}); // the connection dies with the process
  await sleep(300);
  app.child.kill('SIGTERM');
  await sleep(500);
  t.is(app.child.exitCode, null);
  // The request is never finished, so a shutdown waiting for it would never end: exiting is enough.
  app.child.kill('SIGTERM');
  t.is(await app.exited, 1);
});

/**
 * The log reader stops reading (a supervisor that went away but left the pipe open, or one that
 * fell behind): this side stops taking stdout, and hundreds of request lines fill the pipe buffer
 * (64 KB) and what this side would hold (16-64 KB) several times over.
 */
async function stopReadingAndFillTheLog(app: Instance) {
  app.child.stdout!.removeAllListeners('data');
  app.child.stdout!.pause();
  // 404s on long paths: one info line of about 700 bytes each (the path is cut at 500 characters).
  for (let i = 0; i < 400; i++) {
    const res = await fetch(`${app.url}/${'x'.repeat(480)}-${i}`);
    if (res.status !== 404) throw new Error(`expected 404, got ${res.status}`);
  }
}

/**
 * The exit code, or 'still running' after a wait no slow machine needs: what counts is that it
 * exits. The wait is cleared as soon as the process exits, so it does not keep the test file alive.
 */
async function exitWithin60s(app: Instance): Promise<number | null | 'still running'> {
  let timer: NodeJS.Timeout | undefined;
  const wait = new Promise<'still running'>((resolve) => {
    timer = setTimeout(() => resolve('still running'), 60_000);
  });
  try {
    return await Promise.race([app.exited, wait]);
  } finally {
    clearTimeout(timer);
  }
}

/** A server whose log reader stopped reading with the pipe full; killed and removed after the test. */
async function stuckApp(t: ExecutionContext, env: Record<string, string> = {}) {
  const app = await startProcess(env);
  t.teardown(() => {
    app.child.kill('SIGKILL');
    fs.rmSync(app.dataDir, { recursive: true, force: true });
  });
  await stopReadingAndFillTheLog(app);
  return app;
}

/** A beacon whose body never finishes: it holds the shutdown until its deadline. */
async function holdARequest(app: { url: string }) {
  const beacon = slowPost(app.url, JSON.stringify({ site: 'as_nobody_site', url: 'https://x.example/', referrer: '' }));
  beacon.response.catch(() => {});
  await sleep(300);
}

test.serial('a log reader that stopped reading does not keep SIGTERM from exiting', async (t) => {
  const app = await stuckApp(t);
  app.child.kill('SIGTERM');
  t.is(await exitWithin60s(app), 0, app.output());
});

test.serial('with a stuck log reader, the shutdown deadline still exits 1', async (t) => {
  const app = await stuckApp(t, { SHUTDOWN_TIMEOUT_MS: '2000' });
  await holdARequest(app);
  app.child.kill('SIGTERM');
  t.is(await exitWithin60s(app), 1, app.output());
});

test.serial('with a stuck log reader, a second signal exits 1', async (t) => {
  // No deadline within the test's wait: only the second signal can end the process.
  const app = await stuckApp(t, { SHUTDOWN_TIMEOUT_MS: '600000' });
  await holdARequest(app);
  app.child.kill('SIGTERM');
  await sleep(500);
  t.is(app.child.exitCode, null, 'the first signal waits for the request in flight');
  app.child.kill('SIGTERM');
  t.is(await exitWithin60s(app), 1, app.output());
});
