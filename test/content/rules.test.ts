// The pure rules of docs/content.md: keywords, intent, the volume analysis, the opportunity score
// and the topic candidates.
// test-process: shared
import test from 'ava';
import {
  acronyms,
  corePhrase,
  normalizeName,
  phrases,
  promptKeywords,
  volumeCandidates,
  withAcronyms,
} from '../../src/content/keywords.ts';
import { classifyIntent } from '../../src/content/intent.ts';
import { analyzePrompt, competitionOf, type KeywordVolume } from '../../src/content/volumes.ts';
import { opportunityScore, volumeSignal } from '../../src/content/score.ts';
import { topicCandidates } from '../../src/content/suggestions.ts';
import type { PromptSignals } from '../../src/content/signals.ts';

test('phrases, core phrase, keywords and lookup candidates', (t) => {
  t.is(corePhrase('What is the best CRM for startups?'), 'best crm for startups');
  t.deepEqual(phrases('best crm for startups', 3), ['best crm', 'crm', 'crm for startups', 'startups']);
  t.deepEqual(promptKeywords('What is the best CRM for startups?'), [
    'best crm for startups',
    'best crm',
    'crm for startups',
    'crm',
    'startups',
  ]);
  t.false(volumeCandidates('best crm for startups').includes('crm'), 'single words are not looked up');
  t.true(volumeCandidates('best crm for startups').includes('crm for startups'));
  t.is(normalizeName('  CRM Tools! '), normalizeName('crm tool'));
  t.is(normalizeName('Café Süd'), 'cafe sud');
  t.is(withAcronyms('best crm for startups', acronyms(['Top CRM Picks', 'BEST of US'])), 'best CRM for startups');
});

test('intent: first matching rule wins', (t) => {
  const names = ['Acme', 'Globex'];
  t.is(classifyIntent('crm pricing for small teams', names), 'transactional');
  t.is(classifyIntent('acme login', names), 'navigational');
  t.is(classifyIntent('Globex', names), 'navigational');
  t.is(classifyIntent('acme vs globex', names), 'commercial');
  t.is(classifyIntent('best crm for startups', names), 'commercial');
  t.is(classifyIntent('how to migrate crm data', names), 'informational');
});

test('volume analysis: regional figures, all-regions fallback, weighted competition', (t) => {
  const rows: KeywordVolume[] = [
    { keyword: 'best crm for startups', region: 'US', volume: 2400, competition_index: 80 },
    { keyword: 'best crm for startups', region: 'GB', volume: 500, competition_index: 40 },
    { keyword: 'crm for startups', region: '', volume: 1600, competition_index: 60 },
    { keyword: 'crm', region: '', volume: 90000, competition_index: 99 },
  ];
  const volumes = new Map<string, KeywordVolume[]>();
  for (const r of rows) volumes.set(r.keyword, [...(volumes.get(r.keyword) ?? []), r]);
  const us = analyzePrompt({ text: 'best crm for startups', regions: ['us'] }, volumes, {
    multiplier: 0.15,
    entityNames: [],
  });
  t.like(us, {
    total_google_volume: 4000,
    est_ai_volume: 600,
    competition_index: 72,
    competition: 'high',
    intent: 'commercial',
  });
  const both = analyzePrompt({ text: 'best crm for startups', regions: ['US', 'GB'] }, volumes, {
    multiplier: 0.1,
    entityNames: [],
  });
  t.deepEqual(both.google_volumes, [
    { keyword: 'best crm for startups', volume: 2900 },
    { keyword: 'crm for startups', volume: 1600 },
  ]);
  t.is(both.est_ai_volume, 450);
  const none = analyzePrompt({ text: 'crm onboarding', regions: [] }, volumes, { multiplier: 0.15, entityNames: [] });
  t.like(none, {
    total_google_volume: 0,
    est_ai_volume: 0,
    competition_index: null,
    competition: null,
    google_volumes: [],
  });
  t.deepEqual(
    [competitionOf(33), competitionOf(34), competitionOf(66), competitionOf(67)],
    ['low', 'medium', 'medium', 'high'],
  );
});

test('opportunity score: formula, bounds and impact', (t) => {
  t.is(volumeSignal(null), 0.5);
  t.is(volumeSignal(0), 0);
  t.is(volumeSignal(10_000), 1);
  t.is(volumeSignal(1e9), 1);
  t.deepEqual(
    opportunityScore({ estAiVolume: null, brandScore: 30, bestCompetitorScore: 85.6, gapAnswers: 3, answers: 4 }),
    { score: 59.7, impact: 'medium', volume: 0.5, gap: 0.556, presence: 0.75 },
  );
  t.like(
    opportunityScore({ estAiVolume: 10_000, brandScore: 0, bestCompetitorScore: 100, gapAnswers: 5, answers: 5 }),
    { score: 100, impact: 'high' },
  );
  t.like(opportunityScore({ estAiVolume: 0, brandScore: 50, bestCompetitorScore: 40, gapAnswers: 0, answers: 5 }), {
    score: 0,
    impact: 'low',
  });
  t.like(opportunityScore({ estAiVolume: 99, brandScore: 20, bestCompetitorScore: 60, gapAnswers: 1, answers: 4 }), {
    impact: 'medium',
  });
});

const sig = (
  id: string,
  gap: number,
  competitors: [string, number][] = [],
  urls: PromptSignals['urls'] = [],
): PromptSignals => ({
  prompt_id: id,
  answers: gap + 1,
  competitor_answers: gap,
  gap_answers: gap,
  brand: { named: 1, cited: 0, mentions: 1, citations: 0, invPosition: 1 },
  competitors: new Map(
    competitors.map(([cid, named]) => [cid, { named, cited: 0, mentions: named, citations: 0, invPosition: named }]),
  ),
  third_party_answers: 0,
  competitor_page_answers: 0,
  own_page_answers: 0,
  domains: [],
  urls,
});

test('topic candidates: the three signals, thresholds and exclusions', (t) => {
  const input = {
    brand: { name: 'Acme', aliases: ['Acme Inc'] },
    competitors: [{ id: 'g', name: 'Globex', aliases: [] }],
    prompts: [
      { id: '1', text: 'email marketing for shops', topic_id: null },
      { id: '2', text: 'email marketing automation', topic_id: null },
      { id: '3', text: 'best invoicing app', topic_id: 't' },
      { id: '4', text: 'acme invoicing review', topic_id: null },
      { id: '5', text: 'crm data import', topic_id: 't' },
    ],
    topicNames: ['CRM Data'],
    signals: new Map([
      [
        '3',
        sig(
          '3',
          4,
          [['g', 4]],
          [
            {
              url: 'https://g2.com/x',
              domain: 'g2.com',
              category: 'review',
              title: 'Top Invoicing Tools for SMB',
              article_type: 'listicle',
              answers: 3,
            },
          ],
        ),
      ],
      ['5', sig('5', 5, [['g', 5]])],
    ]),
  };
  const c = topicCandidates(input);
  const byName = new Map(c.map((x) => [x.normalized, x]));
  t.like(byName.get('email marketing'), { source: 'prompts', name: 'Email marketing' });
  t.false(byName.has('email'), 'inside a longer candidate that is as strong');
  t.like(byName.get('invoicing'), { source: 'competitors' });
  t.regex(
    byName.get('invoicing')!.reason,
    /^Globex appears in 4 AI answers about "invoicing" that do not mention Acme/,
  );
  t.true(byName.has('smb'), 'from a cited title');
  t.is(byName.get('smb')!.name, 'SMB');
  for (const k of ['crm', 'crm data', 'data']) t.false(byName.has(k), `${k}: part of a topic name`);
  t.true(byName.has('crm data import'), 'a narrower theme than the topic is still a candidate');
  t.false(byName.has('data import'), 'inside a longer candidate that is as strong');
  t.false(
    [...byName.keys()].some((k) => k.includes('acme')),
    'brand names are not topics',
  );
  t.deepEqual(
    c.map((x) => x.weight),
    [...c.map((x) => x.weight)].sort((a, b) => b - a),
  );
});
