// The declared raw endpoints (src/operations/raw-endpoints.ts): the router refuses at start-up a
// declaration without a handler and a handler without a declaration, routes by exact path only,
// and the OpenAPI generator refuses a declared method it has no documentation for.
// test-process: shared
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import test from 'ava';
import Koa from 'koa';
import { rawMount } from '../../src/http/raw.ts';
import { buildOpenApi } from '../../src/http/openapi.ts';
import { rawEndpoints, type RawEndpoint } from '../../src/operations/raw-endpoints.ts';

const names = rawEndpoints.map((e) => e.name);
const answering =
  (name: string): Koa.Middleware =>
  (ctx) => {
    ctx.body = { name };
  };

test('every declared endpoint needs a handler, and every handler a declaration', (t) => {
  const all = Object.fromEntries(names.map((n) => [n, answering(n)]));
  t.notThrows(() => rawMount(all));
  const { collect: _, ...withoutCollect } = all;
  t.throws(() => rawMount(withoutCollect), {
    message: 'Raw endpoint collect (/api/collect) is declared but has no handler',
  });
  t.throws(() => rawMount({ ...all, beacon2: answering('beacon2') }), {
    message: 'Raw endpoint handlers without a declaration: beacon2',
  });
});

test('requests reach the handler of the declared path, written exactly; others pass on', async (t) => {
  const app = new Koa();
  rawMount(Object.fromEntries(names.map((n) => [n, answering(n)])))(app);
  app.use((ctx) => {
    ctx.status = 404;
    ctx.body = { name: 'next' };
  });
  const server = http.createServer(app.callback()).listen(0, '127.0.0.1');
  t.teardown(() => server.close());
  await new Promise((resolve) => server.once('listening', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  for (const e of rawEndpoints) {
    t.deepEqual(await (await fetch(`${base}${e.path}`)).json(), { name: e.name }, e.path);
    t.deepEqual(await (await fetch(`${base}${e.path}/`)).json(), { name: 'next' }, `${e.path}/`);
  }
  t.deepEqual(await (await fetch(`${base}/T.JS`)).json(), { name: 'next' });
});

test('the OpenAPI generator refuses a declared method without documentation', (t) => {
  const script = rawEndpoints.find((e) => e.name === 'tracking-script')!;
  const { HEAD: _, ...onlyGet } = script.openapi;
  const gap: RawEndpoint = { ...script, openapi: onlyGet };
  t.throws(() => buildOpenApi([], [gap]), {
    message: 'OpenAPI: raw endpoint /t.js answers GET, HEAD but documents GET',
  });
});
