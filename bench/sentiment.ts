// Accuracy of the built-in sentiment analyser on the labelled set (test/fixtures/sentiment/):
// accuracy and per-class precision and recall on the tuning part and on the held-out part, which
// the rules were never tuned on. `npm run bench:sentiment`; --errors lists the tuning cases it gets
// wrong (never the held-out ones, so looking at them cannot tune on them).
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { sentimentCase, type SentimentCase } from '../test/fixtures/sentiment/cases.ts';
import type { Polarity } from '../src/tracking/analysis/sentiment/entity-sentiment.ts';

const CLASSES: readonly Polarity[] = ['positive', 'neutral', 'negative'];
const TARGET = 0.8;

function load(file: string): SentimentCase[] {
  const path = fileURLToPath(new URL(`../test/fixtures/sentiment/${file}`, import.meta.url));
  return readFileSync(path, 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l) as SentimentCase);
}

const pct = (x: number) => (Number.isFinite(x) ? `${(100 * x).toFixed(1)}%` : 'n/a');

function report(name: string, cases: SentimentCase[], showErrors: boolean): number {
  let right = 0;
  const tp = new Map<Polarity, number>();
  const predicted = new Map<Polarity, number>();
  const actual = new Map<Polarity, number>();
  for (const c of cases) {
    const got = sentimentCase(c);
    const said = got?.sentiment ?? 'neutral';
    predicted.set(said, (predicted.get(said) ?? 0) + 1);
    actual.set(c.expected, (actual.get(c.expected) ?? 0) + 1);
    if (said === c.expected) {
      right++;
      tp.set(said, (tp.get(said) ?? 0) + 1);
    } else if (showErrors)
      console.log(`  ${c.id} expected ${c.expected}, got ${said} (${got?.score}): ${c.entity.name} | ${c.text}`);
  }
  const accuracy = right / cases.length;
  console.log(`${name}: ${cases.length} cases, accuracy ${pct(accuracy)}`);
  for (const k of CLASSES) {
    const t = tp.get(k) ?? 0;
    console.log(
      `  ${k.padEnd(8)} precision ${pct(t / (predicted.get(k) ?? 0))} recall ${pct(t / (actual.get(k) ?? 0))} (${actual.get(k) ?? 0} labelled)`,
    );
  }
  return accuracy;
}

const showErrors = process.argv.includes('--errors');
report('tuning', load('tuning.jsonl'), showErrors);
const heldOut = report('held-out', load('held-out.jsonl'), false);
console.log(`target (accuracy >= ${TARGET * 100}% on the held-out set): ${heldOut >= TARGET ? 'met' : 'NOT met'}`);
