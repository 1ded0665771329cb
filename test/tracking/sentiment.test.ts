// The built-in sentiment analyser on the sentence kinds its rules exist for (docs/analysis.md,
// "Sentiment"). Accuracy over the labelled set is a bench figure (npm run bench:sentiment).
// test-process: shared
import test from 'ava';
import { compileEntities, mentionText, scanMentions } from '../../src/tracking/analysis/analyze.ts';
import { entitySentiments, type MentionSpan } from '../../src/tracking/analysis/sentiment/entity-sentiment.ts';

/** Sentiment of each named entity, by name; entities are given brand first. */
function judge(text: string, ...names: string[]) {
  const compiled = compileEntities(
    names.map((name, k) => ({ id: `e${k}`, kind: k === 0 ? 'brand' : 'competitor', name, aliases: [], domains: [] })),
  );
  const clean = mentionText(text);
  const spans: MentionSpan[] = [];
  scanMentions(compiled, clean, spans);
  const out = entitySentiments(clean, spans, names.length);
  return Object.fromEntries(names.map((n, k) => [n, out[k]?.sentiment ?? null]));
}

test('plain praise and plain criticism', (t) => {
  t.is(judge('Acme is an excellent, reliable CRM.', 'Acme').Acme, 'positive');
  t.is(judge('Acme is overpriced and buggy.', 'Acme').Acme, 'negative');
  t.is(judge('Acme was founded in 2009 in Berlin.', 'Acme').Acme, 'neutral');
});

test('negation turns the rated word round', (t) => {
  t.is(judge('Acme is not the best option for large teams.', 'Acme').Acme, 'negative');
  t.is(judge("I wouldn't recommend Acme.", 'Acme').Acme, 'negative');
  t.is(judge('Acme is not expensive.', 'Acme').Acme, 'positive');
  t.is(judge("You can't go wrong with Acme.", 'Acme').Acme, 'positive');
  t.is(judge('Acme has no hidden fees.', 'Acme').Acme, 'positive');
});

test('case and the typographic apostrophe do not change a word', (t) => {
  t.is(judge('ACME IS EXCELLENT.', 'Acme').Acme, 'positive');
  t.is(judge('Acme Is Not The Best Option.', 'Acme').Acme, 'negative');
  t.is(judge('I wouldn’t recommend Acme.', 'Acme').Acme, 'negative');
  t.is(judge('You CAN’T go wrong with Acme.', 'Acme').Acme, 'positive');
  // Words with other letters than ASCII are read as toLowerCase spells them, dotted İ included.
  t.is(judge('İstanbul teams say Acme is Excellent.', 'Acme').Acme, 'positive');
  t.is(judge('Acme is EXCELLENT; ΣIGMA is not.', 'Acme').Acme, 'positive');
});

test('a mention ending in a full stop ends the sentence it does not open', (t) => {
  // "Acme Inc." closes the sentence that named Zeta first: the next sentence names no one.
  t.deepEqual(judge('Zeta and Acme Inc. Terrible support elsewhere.', 'Acme Inc.', 'Zeta'), {
    'Acme Inc.': 'neutral',
    Zeta: 'neutral',
  });
  // Opening the sentence, it does not end it.
  t.deepEqual(judge('Acme Inc. and Zeta are terrible.', 'Acme Inc.', 'Zeta'), {
    'Acme Inc.': 'negative',
    Zeta: 'negative',
  });
});

test('contrast: the clause after "but" or "however" carries the point', (t) => {
  t.is(judge('Acme is good but expensive.', 'Acme').Acme, 'negative');
  t.is(judge('Acme is expensive, but it is worth every penny.', 'Acme').Acme, 'positive');
  t.is(judge('Acme looks great; however, the reporting is limited.', 'Acme').Acme, 'negative');
  // A sentence-opening "although" clause weighs less than the main clause.
  t.is(judge('Although Acme costs more, it is the most reliable option.', 'Acme').Acme, 'positive');
});

test('comparatives: the subject gets the judgement, the entity compared with its opposite', (t) => {
  t.deepEqual(judge('Acme is cheaper than Globex.', 'Acme', 'Globex'), { Acme: 'positive', Globex: 'negative' });
  t.deepEqual(judge('Acme is more expensive than Globex.', 'Acme', 'Globex'), { Acme: 'negative', Globex: 'positive' });
  t.deepEqual(judge('Acme is less reliable than Globex.', 'Acme', 'Globex'), { Acme: 'negative', Globex: 'positive' });
  t.deepEqual(judge('Globex lags behind Acme on mobile.', 'Acme', 'Globex'), { Acme: 'positive', Globex: 'negative' });
  t.deepEqual(judge('Acme is a great alternative to Globex.', 'Acme', 'Globex'), {
    Acme: 'positive',
    Globex: 'negative',
  });
  // The comparison goes on past the contrast: "... but (Globex is) louder and less durable".
  t.deepEqual(judge('Globex is cheaper than Acme but much louder and less durable.', 'Acme', 'Globex'), {
    Acme: 'positive',
    Globex: 'negative',
  });
  // A relative clause speaks of the entity just named.
  t.deepEqual(judge('Acme is faster than Globex, which many find bloated.', 'Acme', 'Globex'), {
    Acme: 'positive',
    Globex: 'negative',
  });
});

test('a shared sentence or list: each entity gets the clause or item nearest its mention', (t) => {
  t.deepEqual(judge('Acme is excellent, while Globex is slow and clunky.', 'Acme', 'Globex'), {
    Acme: 'positive',
    Globex: 'negative',
  });
  t.deepEqual(judge('Acme is the clear winner; Globex is decent but pricier.', 'Acme', 'Globex'), {
    Acme: 'positive',
    Globex: 'negative',
  });
  const list =
    '1. **Acme** – excellent uptime.\n2. **Globex** – frequent outages.\n3. **Initech** – a CRM with a mobile app.';
  t.deepEqual(judge(list, 'Acme', 'Globex', 'Initech'), { Acme: 'positive', Globex: 'negative', Initech: 'neutral' });
  t.deepEqual(
    judge('| Tool | Verdict |\n|---|---|\n| Acme | Best value |\n| Globex | Too expensive |', 'Acme', 'Globex'),
    {
      Acme: 'positive',
      Globex: 'negative',
    },
  );
});

test('only the sentences that name an entity count; an unnamed entity has none', (t) => {
  const text = 'Acme is a CRM. Globex is the best tool on the market and we love it.';
  t.deepEqual(judge(text, 'Acme', 'Globex', 'Initech'), { Acme: 'neutral', Globex: 'positive', Initech: null });
  t.deepEqual(judge('', 'Acme'), { Acme: null });
});

test('scores lie in [-1, 1] and the same text always gives the same result', (t) => {
  const text =
    'Acme is the best, best, best, most excellent, superb and outstanding tool ever. Globex is awful, terrible.';
  const compiled = compileEntities([
    { id: 'a', kind: 'brand', name: 'Acme', aliases: [], domains: [] },
    { id: 'g', kind: 'competitor', name: 'Globex', aliases: [], domains: [] },
  ]);
  const spans: MentionSpan[] = [];
  scanMentions(compiled, text, spans);
  const first = entitySentiments(text, spans, 2);
  t.deepEqual(entitySentiments(text, spans, 2), first);
  for (const r of first) {
    t.truthy(r);
    t.true(r!.score >= -1 && r!.score <= 1);
  }
  t.true(first[0]!.score > 0.9);
  t.true(first[1]!.score < -0.5);
});
