// The set-up checklist (docs/app.md "The overview of a new brand", CONTRACT section 25) over the API,
// with the simulated engine (every platform configured): each step is done once it is, from an
// organization without a brand to one with competitors, prompts, a captured answer, an invitation
// and an assistant connected, and the list hides then. An assistant is connected by a request to
// /api/mcp; the same key used on REST connects none. Dismissing hides it for the organization.
// test-process: shared
import test from 'ava';
import { call, get, startTestServer, type TestServer } from '../helpers/server.ts';
import { appCall, person, session } from '../http/app/helpers.ts';
import { initialize, post } from '../mcp/client.ts';
import { until } from '../helpers/until.ts';

let server: TestServer;
test.before(async () => {
  server = await startTestServer({ TRACKING_ENGINE: 'simulated' });
});
test.after.always(async () => {
  await server?.stop();
});

const STEPS = ['brand', 'competitors', 'prompts', 'platforms', 'first_capture', 'invite', 'assistant'];

/** The checklist as {show, the steps done}. */
async function checklist(key: string) {
  const r = await get(server, '/api/mcp/checklist', key);
  if (r.status !== 200) throw new Error(`checklist answered ${r.status}`);
  const steps = (r.body.steps as { step: string }[]).map((s) => s.step);
  if (steps.join() !== STEPS.join()) throw new Error(`the steps: ${steps.join()}`);
  return {
    show: r.body.show as boolean,
    dismissed: r.body.dismissed_at !== null,
    done: (r.body.steps as { step: string; done: boolean }[]).filter((s) => s.done).map((s) => s.step),
  };
}

test('each step is done when it is; the list hides once all are', async (t) => {
  const who = await person(server, []);
  const post_ = (path: string, body: unknown) => call(server, 'POST', `/api/mcp${path}`, { key: who.key, body });
  // Nothing yet but the platforms: the simulated engine answers every platform of the plan.
  t.deepEqual(await checklist(who.key), { show: true, dismissed: false, done: ['platforms'] });

  const brand = await post_('/brands', { name: 'Trailpeak', domains: ['trailpeak.example'] });
  t.is(brand.status, 200, JSON.stringify(brand.body));
  const brandId = brand.body.id;
  t.deepEqual((await checklist(who.key)).done, ['brand', 'platforms']);

  t.is((await post_('/competitors', { brand_id: brandId, name: 'Northwind' })).status, 200);
  t.deepEqual((await checklist(who.key)).done, ['brand', 'competitors', 'platforms']);

  // A topic alone is no prompt.
  const topic = await post_('/topics', { brand_id: brandId, name: 'Trail shoes' });
  t.is(topic.status, 200);
  t.deepEqual((await checklist(who.key)).done, ['brand', 'competitors', 'platforms']);
  const added = await post_('/prompts', {
    brand_id: brandId,
    topic_id: topic.body.id,
    prompts: [{ text: 'best trail running shoes', platforms: ['chatgpt'] }],
  });
  t.is(added.status, 200, JSON.stringify(added.body));
  t.deepEqual((await checklist(who.key)).done, ['brand', 'competitors', 'prompts', 'platforms']);

  t.is((await post_('/capture-now', { brand_id: brandId })).status, 200);
  const captured = await until(
    () => checklist(who.key),
    (c) => c.done.includes('first_capture'),
  );
  t.deepEqual(captured.done, ['brand', 'competitors', 'prompts', 'platforms', 'first_capture']);

  const s = await session(server, who);
  const invited = await appCall(server, s, '/members/invite', { email: 'colleague@trailpeak.example', role: 'member' });
  t.is(invited.status, 200, JSON.stringify(invited.body));
  t.deepEqual((await checklist(who.key)).done, [
    'brand',
    'competitors',
    'prompts',
    'platforms',
    'first_capture',
    'invite',
  ]);

  // The key has been used on REST all along: no assistant yet. Its first MCP request connects one.
  await new Promise((r) => setTimeout(r, 200)); // the key's last use is written after the answer
  t.deepEqual(await checklist(who.key), {
    show: true,
    dismissed: false,
    done: ['brand', 'competitors', 'prompts', 'platforms', 'first_capture', 'invite'],
  });
  const hello = await post(server, initialize, { authorization: `Bearer ${who.key}` });
  t.is(hello.status, 200);
  t.deepEqual(await checklist(who.key), { show: false, dismissed: false, done: STEPS });
});

test('dismissed, the list hides for the whole organization with its steps as they are', async (t) => {
  const who = await person(server, []);
  const r = await call(server, 'POST', '/api/mcp/dismiss-checklist', { key: who.key, body: {} });
  t.is(r.status, 200);
  t.deepEqual(r.body, { dismissed: true });
  t.deepEqual(await checklist(who.key), { show: false, dismissed: true, done: ['platforms'] });
  // Dismissing again keeps the first time.
  const first = (await get(server, '/api/mcp/checklist', who.key)).body.dismissed_at;
  await call(server, 'POST', '/api/mcp/dismiss-checklist', { key: who.key, body: {} });
  t.is((await get(server, '/api/mcp/checklist', who.key)).body.dismissed_at, first);
});
