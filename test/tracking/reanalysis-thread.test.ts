// A re-analysis's steps are analysed on a worker thread (src/tracking/reanalysis/worker-thread.ts): the
// lines it hands back are those the same step gives when analysed here, a step it cannot read
// fails with the worker's reason, and bytes move between the threads only when they own their memory.
// test-process: shared
import test from 'ava';
import { compileEntities } from '../../src/tracking/analysis/analyze.ts';
import { stepLines, type StoredAnswer, type StoredCitation } from '../../src/tracking/reanalysis/step.ts';
import { ReanalysisThread } from '../../src/tracking/reanalysis/worker-thread.ts';
import { wideRows } from '../../src/tracking/ingest/fact-rows.ts';
import { transferable } from '../../src/runtime/ts-worker.ts';
import { textHash, type StoredVerdict } from '../../src/tracking/ingest/sentiment-verdicts.ts';
import type { Entity } from '../../src/tenancy/tracked.ts';

const brandId = '00000000-0000-4000-8000-000000000001';
const entities: Entity[] = [
  {
    id: '00000000-0000-4000-8000-0000000000a1',
    kind: 'brand',
    name: 'Acme',
    aliases: ['Acme Inc'],
    domains: ['acme.com'],
  },
  {
    id: '00000000-0000-4000-8000-0000000000b1',
    kind: 'competitor',
    name: 'Globex',
    aliases: [],
    domains: ['globex.com'],
  },
];
const answer = (n: number, text: string): StoredAnswer => ({
  answer_id: `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`,
  organization_id: '00000000-0000-4000-8000-0000000000f1',
  prompt_id: '00000000-0000-4000-8000-0000000000e1',
  platform: 'chatgpt',
  model: 'gpt-4o',
  region: 'US',
  collected_at: '2026-03-01T10:00:00.000Z',
  text,
});
const answers = [
  answer(1, 'Acme is the best choice, though Globex is cheaper.'),
  answer(2, 'Globex is not reliable; Acme Inc is great but expensive.'),
  answer(3, 'Nothing here names anyone.'),
];
const citations: StoredCitation[] = [
  { answer_id: answers[0].answer_id, url: 'https://globex.com/pricing', title: 'Pricing', answer_first: 0 },
  { answer_id: answers[0].answer_id, url: 'https://acme.com/', title: 'Acme', answer_first: 1 },
  { answer_id: answers[1].answer_id, url: 'https://review.example/acme', title: '', answer_first: 1 },
];
// The model judged Globex in answer 2 positive: the verdict replaces the built-in negative one.
const verdicts: StoredVerdict[] = [
  {
    answer_id: answers[1].answer_id,
    entity_id: entities[1].id,
    judged_at: '2026-03-01T11:00:00.000Z',
    text_hash: textHash(answers[1].text),
    judged: 1,
    sentiment: 1,
    sentiment_score: 0.75,
  },
];
const bytes = (rows: object[]) => Buffer.from(rows.map((r) => `${JSON.stringify(r)}\n`).join(''));
const step = () => ({ answers: bytes(answers), citations: bytes(citations), verdicts: bytes(verdicts) });

test('the worker gives the lines of a step that the analysis here gives, model verdicts applied', async (t) => {
  const here = stepLines(step(), brandId, compileEntities(entities), 4);
  t.is(here.answers, 3);
  const text = Buffer.from(here.rows).toString('hex');
  // Answer 2's Globex row carries the model's verdict (1, 0.75), not the built-in one.
  const rows = wideRows(here.rows, true);
  t.deepEqual(
    rows.map((r) => r.answer_id),
    answers.map((a) => a.answer_id),
  );
  const globex = rows[1].entity_rows.find((e) => e.entity_id === entities[1].id);
  t.deepEqual([globex?.sentiment, globex?.sentiment_score], [1, 0.75]);
  t.true(
    rows.every((r) => r.reanalysis === 1 && r.text === ''),
    'flagged as re-analysis, without the text',
  );
  const thread = new ReanalysisThread({ brandId, entities, generation: 4 });
  try {
    const there = await thread.step(step());
    t.is(there.answers, 3);
    t.is(Buffer.from(there.rows).toString('hex'), text);
    // Without verdicts, the built-in verdicts stand: other lines.
    const builtIn = await thread.step({ ...step(), verdicts: null });
    t.not(Buffer.from(builtIn.rows).toString('hex'), text);
    t.is(
      Buffer.from(builtIn.rows).toString('hex'),
      Buffer.from(stepLines({ ...step(), verdicts: null }, brandId, compileEntities(entities), 4).rows).toString('hex'),
    );
  } finally {
    await thread.close();
  }
});

test('a step the worker cannot read fails with its reason, and the next step is done', async (t) => {
  const thread = new ReanalysisThread({ brandId, entities, generation: 1 });
  try {
    const bad = thread.step({ answers: Buffer.from('{"answer_id": \n'), citations: Buffer.alloc(0), verdicts: null });
    const good = thread.step(step());
    const err = await t.throwsAsync(bad);
    t.regex(err.message, /^re-analysis worker: .*JSON/);
    t.is((await good).answers, 3);
  } finally {
    await thread.close();
  }
});

test('bytes that own their memory move to the worker; a slice of a shared pool is copied', (t) => {
  t.deepEqual(transferable(null), []);
  // Small buffers come from Node's shared pool: moving that memory would take it from every other user.
  const pooled = Buffer.from('{"a":1}\n');
  t.true(pooled.byteLength < pooled.buffer.byteLength);
  t.deepEqual(transferable(pooled), []);
  const own = Buffer.concat([Buffer.alloc(8192, 1), Buffer.alloc(8192, 2)]);
  t.deepEqual(transferable(own), [own.buffer]);
});
