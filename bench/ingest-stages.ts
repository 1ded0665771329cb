// bench/ingest-stages: where the ingest worker's time goes, per answer, on one thread with nothing
// else running: parse, validate, analyse, derive the id, write the rows into the
// batch's buffer, and the worker's whole step (ingest/prepare-chunk.ts, on the file's chunks) together.
// The stages run in turns for R rounds and the median of each is printed, so a machine whose speed
// drifts during the run affects every stage alike. Inside `bench/ingest.ts` the same work costs more
// CPU per answer, since it shares the machine's two cores with chDB.
//   node --import tsx bench/ingest-stages.ts [N=20000] [R=7]
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { benchWorkspace } from './ingest-workspace.ts';
import { latestCollectedAt, validateAnswer, type ValidAnswer } from '../src/tracking/ingest/answer-schema.ts';
import { analyzeAnswer } from '../src/tracking/analysis/analyze.ts';
import { answerId } from '../src/tracking/ingest/ids.ts';
import { IngestCache } from '../src/tracking/ingest/batch.ts';
import { BATCH_SIZE } from '../src/tracking/ingest/file.ts';
import { prepareChunk } from '../src/tracking/ingest/prepare-chunk.ts';
import { parseCards } from '../src/tracking/analysis/products.ts';
import { RowBinaryWriter } from '../src/stores/row-binary.ts';
import { answerRows } from '../src/tracking/ingest/answer-rows.ts';

const N = Number(process.argv[2] ?? 20_000);
const ROUNDS = Number(process.argv[3] ?? 7);
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'answerscope-bench-stages-'));
const ws = await benchWorkspace(dir);
const lines = [...ws.lines(N)];
// The file's chunks as ingestFile cuts them.
const chunks: Buffer[] = [];
for (let i = 0; i < lines.length; i += BATCH_SIZE)
  chunks.push(Buffer.from(`${lines.slice(i, i + BATCH_SIZE).join('\n')}\n`));

const lookups = new IngestCache(ws.stores);
await lookups.resolvePrompts(lines.map((l) => JSON.parse(l).prompt_id));
const compiled = await lookups.compiled(ws.brandId);
const prompt = lookups.prompt(JSON.parse(lines[0]).prompt_id)!;
const latest = latestCollectedAt(new Date());
const answers = lines.map((l) => (validateAnswer(JSON.parse(l)) as { answer: ValidAnswer }).answer);
const analyses = answers.map((a) => (a.mode === 'shopping' ? null : analyzeAnswer(a, compiled)));
const cards = answers.map((a) => (a.mode === 'shopping' ? parseCards(a.products, compiled) : []));
// Flat copies: strings built by concatenation are trees of pieces, and keeping 20,000 of them alive
// would make every garbage collection in the run walk them.
const flat = (s: string) => Buffer.from(s).toString();
const ids = answers.map((a) => flat(answerId(a)));
const ctx = (i: number) => ({
  answerId: ids[i],
  organizationId: prompt.organizationId,
  brandId: prompt.brandId,
  generation: 0,
});

let sink = 0; // keeps results alive long enough that no stage is optimised away
const stages: Record<string, () => unknown> = {
  'parse (JSON.parse)': () => {
    for (const l of lines) sink += JSON.parse(l).text.length;
  },
  // The worker reads its bound once per run; so does this stage.
  'validate (after parse)': () => {
    for (const l of lines) sink += validateAnswer(JSON.parse(l), latest).ok ? 1 : 0;
  },
  analyse: () => {
    for (let i = 0; i < answers.length; i++)
      if (analyses[i]) sink += analyzeAnswer(answers[i], compiled).citations.length;
  },
  'shopping cards': () => {
    for (const a of answers) if (a.mode === 'shopping') sink += parseCards(a.products, compiled).length;
  },
  'answer id': () => {
    for (const a of answers) sink += answerId(a).length;
  },
  // Written into the batch's bytes as the worker writes them (RowBinary, ingest/fact-rows.ts).
  rows: () => {
    const w = new RowBinaryWriter(answers.length * 2048);
    for (let i = 0; i < answers.length; i++) sink += answerRows(answers[i], ctx(i), analyses[i], cards[i], w).length;
    sink += w.size;
  },
  'worker step (all of the above, and reading the chunks)': async () => {
    for (const [i, bytes] of chunks.entries())
      sink += (await prepareChunk({ bytes }, { latest, atStart: i === 0 }, lookups)).batch.order.length;
  },
};

const times: Record<string, number[]> = {};
for (let r = 0; r < ROUNDS; r++) {
  for (const [name, run] of Object.entries(stages)) {
    const t = performance.now();
    await run();
    times[name] ??= [];
    times[name].push(((performance.now() - t) * 1000) / N);
  }
}
const median = (v: number[]) => [...v].sort((a, b) => a - b)[v.length >> 1];
console.log(
  JSON.stringify(
    {
      answers: N,
      rounds: ROUNDS,
      us_per_answer: Object.fromEntries(Object.entries(times).map(([k, v]) => [k, Math.round(median(v) * 100) / 100])),
      checksum: sink > 0,
    },
    null,
    2,
  ),
);
await ws.stores.close();
fs.rmSync(dir, { recursive: true, force: true });
