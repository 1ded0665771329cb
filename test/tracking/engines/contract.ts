// What every adapter must do against its fake provider, whatever the provider: retry a 429 after
// its Retry-After, retry 5xx with back-off and then give up with http_error, never retry a 4xx,
// turn a stalled answer into a timeout and an undocumented body into malformed, and send nothing
// without a key. Each adapter's own test file adds its answer parsing and request shape.
import test from 'ava';
import type { Platform } from '../../../src/tenancy/tracked.ts';
import type { CaptureRequest, Engine, HttpPolicy } from '../../../src/tracking/capture/engines/types.ts';
import { fixtureText, startFake, type FakeServer, type Handler } from './fake-server.ts';

// Generous deadline: the fake shares this process's event loop with ava, tsx and the other tests.
export const POLICY: HttpPolicy = { timeoutMs: 10_000, maxAttempts: 3, retryBaseMs: 5 };

export function request(platform: Platform, over: Partial<CaptureRequest> = {}): CaptureRequest {
  return {
    prompt: 'best crm for startups',
    platform,
    region: 'US',
    mode: 'standard',
    slot: { promptId: '00000000-0000-4000-8000-000000000001', day: '2026-11-01', sample: 0 },
    ...over,
  };
}

export interface ContractSpec {
  provider: string;
  platform: Platform;
  /** The adapter, pointed at the fake; apiKey undefined means "not configured". */
  create(baseUrl: string, apiKey: string | undefined, policy: HttpPolicy): Engine;
  /** The fixture of a good answer. */
  good: string;
  /** The provider's documented error body for a 5xx, and its key variable. */
  serverError: string;
  keyVariable: string;
}

/** Starts a fake that answers with `handler`, closed when the test ends. */
export async function fake(t: { teardown(fn: () => unknown): void }, handler: Handler): Promise<FakeServer> {
  const server = await startFake(handler);
  t.teardown(() => server.close());
  return server;
}

export function adapterContract(spec: ContractSpec): void {
  const p = spec.platform;
  const good = (base: string) => ({ body: fixtureText(spec.provider, spec.good, base) });

  test(`${p}: a 429 with Retry-After is retried once the wait is over, then succeeds`, async (t) => {
    const server = await fake(t, (_r, n) =>
      n === 1
        ? { status: 429, headers: { 'retry-after': '1' }, body: { error: { message: 'Rate limit reached' } } }
        : good(server.url),
    );
    const started = Date.now();
    const out = await spec.create(server.url, 'test-key', POLICY).capture(request(p));
    t.true(out.ok, JSON.stringify(out));
    t.is(server.requests.filter((r) => !r.path.includes('grounding-api-redirect')).length, 2);
    t.true(Date.now() - started >= 950, 'waited for Retry-After');
  });

  test(`${p}: a 5xx is retried with back-off, then reported as a retryable http_error`, async (t) => {
    const server = await fake(t, () => ({ status: 500, body: fixtureText(spec.provider, spec.serverError) }));
    const out = await spec.create(server.url, 'test-key', POLICY).capture(request(p));
    t.false(out.ok);
    if (out.ok) return;
    t.is(out.failure.kind, 'http_error');
    t.true(out.failure.retryable);
    t.regex(out.failure.message, /HTTP 500.*after 3 attempts/);
    t.is(server.requests.length, 3);
  });

  test(`${p}: a 4xx other than 429 is not retried, and the message never holds the key`, async (t) => {
    const server = await fake(t, () => ({ status: 401, body: { error: { message: 'Invalid API key' } } }));
    const out = await spec.create(server.url, 'sk-secret-key', POLICY).capture(request(p));
    t.false(out.ok);
    if (out.ok) return;
    t.is(out.failure.kind, 'http_error');
    t.false(out.failure.retryable);
    t.regex(out.failure.message, /HTTP 401: Invalid API key/);
    t.false(out.failure.message.includes('sk-secret-key'));
    t.is(server.requests.length, 1);
  });

  test(`${p}: an answer that does not come within the deadline is a timeout`, async (t) => {
    const server = await fake(t, () => ({ hang: true }));
    const out = await spec
      .create(server.url, 'test-key', { ...POLICY, timeoutMs: 300, maxAttempts: 2 })
      .capture(request(p));
    t.false(out.ok);
    if (out.ok) return;
    t.is(out.failure.kind, 'timeout');
    t.true(out.failure.retryable);
    t.regex(out.failure.message, /did not answer within 300 ms \(after 2 attempts\)/);
  });

  test(`${p}: a body that is not JSON, or JSON without the documented shape, is malformed`, async (t) => {
    const html = await fake(t, () => ({ body: '<html>Bad gateway</html>' }));
    const a = await spec.create(html.url, 'test-key', POLICY).capture(request(p));
    t.like(a, { ok: false, failure: { kind: 'malformed', retryable: false } });
    t.is(html.requests.length, 1, 'a malformed answer is not retried');
    const odd = await fake(t, () => ({ body: { unexpected: true } }));
    const b = await spec.create(odd.url, 'test-key', POLICY).capture(request(p));
    t.like(b, { ok: false, failure: { kind: 'malformed' } });
  });

  test(`${p}: without a key nothing is sent and the platform is not configured`, async (t) => {
    const server = await fake(t, () => ({ status: 500 }));
    const engine = spec.create(server.url, undefined, POLICY);
    t.false(engine.configured);
    const out = await engine.capture(request(p));
    t.deepEqual(out, {
      ok: false,
      failure: { kind: 'not_configured', message: `${spec.keyVariable} is not set`, retryable: false },
    });
    t.is(server.requests.length, 0);
  });
}
