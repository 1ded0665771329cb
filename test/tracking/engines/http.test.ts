// The shared HTTP policy: Retry-After forms, waits too long to be worth it, unreachable providers.
// test-process: shared
import test from 'ava';
import { backoff, requestJson, retryAfter } from '../../../src/tracking/capture/engines/http.ts';
import { fake, POLICY } from './contract.ts';

test('Retry-After is read in seconds, as an HTTP date, or as retry-after-ms', (t) => {
  const now = Date.parse('2026-11-01T05:00:00Z');
  t.is(retryAfter(new Headers({ 'retry-after': '2' }), now), 2000);
  t.is(retryAfter(new Headers({ 'retry-after': 'Sun, 01 Nov 2026 05:00:30 GMT' }), now), 30_000);
  t.is(retryAfter(new Headers({ 'retry-after-ms': '250', 'retry-after': '9' }), now), 250);
  t.is(retryAfter(new Headers({ 'retry-after': 'soon' }), now), undefined);
  t.is(retryAfter(new Headers(), now), undefined);
});

test('back-off doubles per attempt, with jitter, up to a minute', (t) => {
  for (let i = 0; i < 20; i++) {
    const third = backoff(1000, 3);
    t.true(third >= 2000 && third < 4000);
    t.true(backoff(1000, 30) <= 60_000);
  }
});

test('a Retry-After longer than worth waiting ends the request as rate_limited at once', async (t) => {
  const server = await fake(t, () => ({ status: 429, headers: { 'retry-after': '3600' } }));
  // Waiting the hour would outlast the test: one request and this failure are the request ending at once.
  const r = await requestJson({ provider: 'Test', url: `${server.url}/x` }, { ...POLICY, maxRetryAfterMs: 60_000 });
  t.like(r, {
    ok: false,
    failure: {
      kind: 'rate_limited',
      message: 'Test rate limit (HTTP 429); Retry-After 3600 s is longer than worth waiting',
    },
  });
  t.is(server.requests.length, 1);
});

test('an unreachable provider is a retryable http_error, retried up to the attempt limit', async (t) => {
  const server = await fake(t, () => ({}));
  const url = `${server.url}/x`;
  await server.close();
  const r = await requestJson({ provider: 'Test', url }, POLICY);
  t.like(r, { ok: false, failure: { kind: 'http_error', retryable: true } });
  if (!r.ok) t.regex(r.failure.message, /^Test could not be reached \(ECONNREFUSED\) \(after 3 attempts\)$/);
});
