// The OpenAPI document: valid OpenAPI 3.1 (a well-kept validator), every operation on each of its
// surfaces, the committed docs/openapi.json identical to a fresh build, served as built, and the
// /docs reference page rendered in a real browser from this server alone.
// test-process: shared
import fs from 'node:fs';
import test from 'ava';
import { Validator } from '@seriousme/openapi-schema-validator';
import { operations } from '../../src/operations/index.ts';
import { operationPath } from '../../src/operations/registry.ts';
import { buildOpenApi, openApiText } from '../../src/http/openapi.ts';
import { rawEndpoints } from '../../src/operations/raw-endpoints.ts';
import { HAVE_CHROMIUM, launchChromium } from '../helpers/chromium.ts';
import { get, seedTenant, startTestServer, type TestServer } from '../helpers/server.ts';

let server: TestServer;
test.before(async () => {
  server = await startTestServer();
});
test.after.always(async () => {
  await server?.stop();
});

const doc = buildOpenApi(operations);

test('the document is valid OpenAPI 3.1', async (t) => {
  const validator = new Validator();
  const result = await validator.validate(structuredClone(doc));
  t.is(validator.version, '3.1');
  t.true(result.valid, JSON.stringify(result.errors, null, 2));
});

test('every operation is documented on each of its surfaces, with params, result and errors', (t) => {
  let count = 0;
  for (const op of operations) {
    const prefixes = op.metrics ? ['/api/mcp', '/api/v1'] : ['/api/mcp'];
    for (const prefix of prefixes) {
      const path = `${prefix}${operationPath(op).replace(/:(\w+)/g, '{$1}')}`;
      const entry = doc.paths[path]?.[op.method.toLowerCase()];
      if (!entry) {
        t.fail(`${op.method} ${path} is missing`);
        continue;
      }
      count++;
      t.is(entry.description, op.description);
      t.deepEqual(entry.security ?? doc.security, [{ bearerAuth: [] }]);
      const ref = entry.responses['200'].content['application/json'].schema.$ref as string;
      t.truthy(doc.components.schemas[ref.split('/').pop()!], `${path}: result schema ${ref}`);
      for (const status of ['401', '429', '500']) {
        t.is(
          entry.responses[status].content['application/json'].schema.$ref,
          '#/components/schemas/Error',
          `${path} ${status}`,
        );
      }
      // Every declared parameter appears once: in the path, the query or the JSON body.
      const declared = Object.keys((op.params as any).shape ?? {}).sort();
      const documented = [
        ...entry.parameters.map((p: any) => p.name),
        ...Object.keys(entry.requestBody?.content['application/json'].schema.properties ?? {}),
      ].sort();
      t.deepEqual(documented, declared, `${op.method} ${path}`);
      for (const p of entry.parameters) if (p.in === 'path') t.true(p.required);
    }
  }
  const documentedOps = Object.values(doc.paths).reduce(
    (n: number, methods: any) => n + Object.values(methods).filter((m: any) => !m['x-raw-endpoint']).length,
    0,
  );
  t.is(documentedOps, count, 'no operation in the document that the registry lacks');
  t.deepEqual(doc.components.securitySchemes.bearerAuth, {
    type: 'http',
    scheme: 'bearer',
    description: doc.components.securitySchemes.bearerAuth.description,
  });
});

test('the raw endpoints are documented with their methods, access and own limits', (t) => {
  const methodsOf = (path: string) => Object.keys(doc.paths[path] ?? {}).sort();
  t.deepEqual(methodsOf('/t.js'), ['get', 'head']);
  t.deepEqual(methodsOf('/api/collect'), ['options', 'post']);
  t.deepEqual(methodsOf('/api/mcp/crawler-logs'), ['post']);
  t.deepEqual(doc.paths['/t.js'].get.security, [], 'no key');
  t.deepEqual(doc.paths['/api/collect'].post.security, [], 'no key');
  t.falsy(doc.paths['/api/collect'].options.responses['429'], 'the preflight is not limited');
  t.deepEqual(doc.paths['/api/collect'].post.requestBody.content['application/json'].schema.required, ['site', 'url']);
  t.is(doc.paths['/api/mcp/crawler-logs'].post.security, undefined, 'the API key, as every operation');
  t.truthy(doc.paths['/t.js'].get.responses['200'].content['application/javascript']);
  t.falsy(doc.paths['/t.js'].get.responses['429'], 'no rate limit');
  const collect = doc.paths['/api/collect'].post;
  t.regex(collect.responses['429'].content['application/json'].example.error, /the limit is 600 per 60 seconds/);
  t.truthy(collect.responses['400'].content['application/json'].examples['body-exceeds-8192-bytes']);
  const logs = doc.paths['/api/mcp/crawler-logs'].post;
  t.regex(logs.responses['429'].content['application/json'].example.error, /the limit is 120 per 60 seconds/);
  t.truthy(logs.responses['413']);
  t.deepEqual(
    logs.parameters.map((p: any) => [p.name, p.in, p.required]),
    [['brand_id', 'query', true]],
  );
  t.is(logs.requestBody.content['application/json'].schema.type, 'array');
});

test('a disallowed method on a raw endpoint answers 405 naming the declared methods', async (t) => {
  // The key passes the guard of a keyed endpoint, so its handler answers the method.
  const { key } = await seedTenant(server);
  for (const e of rawEndpoints) {
    const res = await fetch(`${server.url}${e.path}`, { method: 'PUT', headers: { authorization: `Bearer ${key}` } });
    t.is(res.status, 405, e.path);
    t.deepEqual(res.headers.get('allow')?.split(', '), [...e.methods], e.path);
  }
});

test('docs/openapi.json is what the code generates (regenerate it with `npm run openapi`)', (t) => {
  const committed = fs.readFileSync(new URL('../../docs/openapi.json', import.meta.url), 'utf8');
  t.true(
    committed === openApiText(operations),
    'docs/openapi.json is stale: run `npm run openapi` and commit the result',
  );
});

test('GET /api/openapi.json serves the document without a key; /docs serves the page and its renderer', async (t) => {
  const served = await get(server, '/api/openapi.json');
  t.is(served.status, 200);
  t.deepEqual(served.body, doc);
  const page = await fetch(`${server.url}/docs`);
  t.is(page.status, 200);
  t.regex(page.headers.get('content-type') ?? '', /^text\/html/);
  t.regex(page.headers.get('content-security-policy') ?? '', /default-src 'none'; script-src 'self'/);
  const html = await page.text();
  for (const src of [...html.matchAll(/(?:src|href)="([^"]+)"/g)]
    .map((m) => m[1])
    .filter((s) => !s.startsWith('data:'))) {
    t.true(src.startsWith('/docs/'), `${src} is served locally`);
    const asset = await fetch(`${server.url}${src}`, { headers: { 'accept-encoding': 'gzip' } });
    t.is(asset.status, 200, src);
    t.true((await asset.arrayBuffer()).byteLength > 0);
  }
});

const skipBrowser = HAVE_CHROMIUM ? test : test.skip;
skipBrowser('the /docs page renders every operation in a browser without reaching any other host', async (t) => {
  const browser = await launchChromium();
  t.teardown(() => browser.close());
  const page = await browser.newPage();
  const elsewhere: string[] = [];
  const origin = new URL(server.url).origin;
  page.on('request', (r) => {
    if (!r.url().startsWith(origin) && !r.url().startsWith('data:')) elsewhere.push(r.url());
  });
  const problems: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error') problems.push(m.text());
  });
  page.on('pageerror', (e) => problems.push(e.message));
  await page.goto(`${server.url}/docs`);
  const expected = Object.values(doc.paths).reduce((n: number, methods: any) => n + Object.keys(methods).length, 0);
  await page.waitForFunction((n) => document.querySelectorAll('.opblock').length === n, expected, { timeout: 30_000 });
  t.is(await page.locator('.opblock').count(), expected);
  t.truthy(await page.getByText('Answerscope API').first().isVisible());
  t.deepEqual(elsewhere, []);
  t.deepEqual(problems, []);
});
