// Topic suggestions: themes worth tracking as a topic, proposed by the suggest-topics job from the
// brand's tracking data, then accepted (a topic is created) or dismissed by the user. A name, once
// suggested, is never proposed again for the brand (the unique key is the normalised name).
// docs/content.md explains the three signals and the thresholds.
import type { BrandId } from '../stores/scoped-query.ts';
import { randomUUID } from 'node:crypto';
import type { Stores } from '../stores/index.ts';
import type { Postgres } from '../stores/postgres.ts';
import { SUGGESTIONS_LOCK_SEED } from '../stores/locks.ts';
import { notFound } from '../errors.ts';
import { acronyms, capitalize, isContentWord, normalizeName, phrases, withAcronyms, words } from './keywords.ts';
import { promptSignals, windowFilters, type PromptSignals } from './signals.ts';
import { UUID_RE } from '../uuid.ts';
import { competitorsOf } from '../tenancy/brands.ts';
import { activePrompts, ensureTopic, topicNames } from '../tenancy/prompts.ts';
import { humanOrder } from '../text-order.ts';

export const SUGGESTION_NOT_FOUND = 'Suggestion not found, not pending, or already processed';
/** The job tops the brand's pending suggestions up to this many. */
export const MAX_PENDING = 10;

export type SuggestionSource = 'prompts' | 'competitors' | 'citations';

export interface TopicCandidate {
  name: string;
  normalized: string;
  reason: string;
  source: SuggestionSource;
  weight: number;
}

interface Evidence {
  phrase: string;
  prompts: Set<string>;
  /** Answers naming or citing a competitor but not the brand, summed over the prompts using the phrase. */
  gap: number;
  rivals: Map<string, number>;
  /** Answers citing third-party pages whose title uses the phrase. */
  cited: number;
  domains: Set<string>;
  example?: string;
}

export interface SuggestionInput {
  brand: { name: string; aliases: string[] };
  competitors: { id: string; name: string; aliases: string[] }[];
  prompts: { id: string; text: string; topic_id: string | null }[];
  topicNames: string[];
  signals: Map<string, PromptSignals>;
}

/** A phrase that can name a topic: starts and ends on a content word, at most three words. */
const topicPhrases = (text: string) =>
  phrases(text, 3).filter((p) => {
    const ws = p.split(' ');
    return isContentWord(ws[0]) && isContentWord(ws[ws.length - 1]);
  });

const contains = (haystack: string, needle: string) => ` ${haystack} `.includes(` ${needle} `);

/** Candidates from the data, best first. Pure: the job decides which are new. */
export function topicCandidates(input: SuggestionInput): TopicCandidate[] {
  const evidence = new Map<string, Evidence>();
  const at = (phrase: string) => {
    const key = normalizeName(phrase);
    let e = evidence.get(key);
    if (!e) {
      e = { phrase, prompts: new Set(), gap: 0, rivals: new Map(), cited: 0, domains: new Set() };
      evidence.set(key, e);
    }
    return e;
  };
  const rivalName = new Map(input.competitors.map((c) => [c.id, c.name]));
  const prompts = [...input.prompts].sort((a, b) => humanOrder(a.text, b.text));
  for (const p of prompts) {
    const sig = input.signals.get(p.id);
    for (const phrase of topicPhrases(p.text)) {
      const e = at(phrase);
      // Prompts outside any topic are the themes the brand tracks without grouping them.
      if (p.topic_id === null) e.prompts.add(p.id);
      if (sig && sig.gap_answers > 0) {
        e.gap += sig.gap_answers;
        e.example ??= p.text;
        for (const [id, s] of sig.competitors)
          if (rivalName.has(id)) e.rivals.set(id, (e.rivals.get(id) ?? 0) + s.named + s.cited);
      }
    }
    for (const u of sig?.urls ?? []) {
      if (u.category === 'you' || u.category === 'competitor' || !u.title) continue;
      for (const phrase of topicPhrases(u.title)) {
        const e = at(phrase);
        e.cited += u.answers;
        e.domains.add(u.domain);
      }
    }
  }

  const entityNames = [
    input.brand.name,
    ...input.brand.aliases,
    ...input.competitors.flatMap((c) => [c.name, ...c.aliases]),
  ]
    .map(normalizeName)
    .filter(Boolean);
  const topics = input.topicNames.map(normalizeName);
  const caps = acronyms([
    ...input.prompts.map((p) => p.text),
    ...input.topicNames,
    ...[...input.signals.values()].flatMap((s) => s.urls.map((u) => u.title)),
  ]);
  const scored: (TopicCandidate & { words: number })[] = [];
  for (const [key, e] of evidence) {
    if (!key || words(key).every((w) => /^\d+$/.test(w))) continue;
    // Brand and competitor names are entities, not topics; a theme inside a topic is covered by it.
    if (entityNames.some((n) => contains(key, n) || contains(n, key))) continue;
    if (topics.some((t) => contains(t, key))) continue;
    const parts: [SuggestionSource, number][] = [
      ['prompts', 3 * e.prompts.size],
      ['competitors', 2 * e.gap],
      ['citations', e.cited],
    ];
    const qualifies = e.prompts.size >= 2 || e.gap >= 3 || e.cited >= 3;
    if (!qualifies) continue;
    const [source] = parts.sort((a, b) => b[1] - a[1])[0];
    scored.push({
      name: capitalize(withAcronyms(e.phrase, caps)),
      normalized: key,
      source,
      reason: reasonOf(source, e, input),
      weight: parts.reduce((s, [, w]) => s + w, 0),
      words: key.split(' ').length,
    });
  }
  // A phrase inside a longer candidate that is at least as strong adds nothing ("crm" vs "crm tool").
  const kept = scored.filter(
    (c) =>
      !scored.some((o) => o !== c && o.words > c.words && contains(o.normalized, c.normalized) && o.weight >= c.weight),
  );
  return kept
    .sort((a, b) => b.weight - a.weight || humanOrder(a.normalized, b.normalized))
    .map(({ words: _w, ...c }) => c);
}

function reasonOf(source: SuggestionSource, e: Evidence, input: SuggestionInput): string {
  const q = `"${e.phrase}"`;
  if (source === 'competitors') {
    const [top] = [...e.rivals].sort((a, b) => b[1] - a[1] || humanOrder(a[0], b[0]));
    const who = top ? input.competitors.find((c) => c.id === top[0])?.name : undefined;
    return (
      `${who ?? 'Competitors'} ${who ? 'appears' : 'appear'} in ${e.gap} AI answers about ${q} that do not ` +
      `mention ${input.brand.name}${e.example ? ` (e.g. "${e.example}")` : ''}.`
    );
  }
  if (source === 'prompts') {
    return (
      `${e.prompts.size} tracked prompts outside any topic are about ${q}; a topic would group and report ` +
      `them together.`
    );
  }
  const domains = [...e.domains].sort().slice(0, 3).join(', ');
  return `AI answers to the brand's prompts cite pages about ${q} ${e.cited} times (e.g. ${domains}).`;
}

/** Runs the candidates for one brand and inserts the new ones, up to MAX_PENDING pending. */
export async function suggestTopicsForBrand(
  stores: Stores,
  brand: { id: BrandId; organization_id: string; name: string; aliases: string[]; analysis_generation: number },
  date: string,
): Promise<{ candidates: number; created: number }> {
  const pg = stores.pg;
  const [prompts, competitors, names, signals] = await Promise.all([
    activePrompts(pg, brand.id),
    competitorsOf(pg, brand.id),
    topicNames(pg, brand.id),
    promptSignals(stores.ch, windowFilters(brand, date)),
  ]);
  const candidates = topicCandidates({ brand, competitors, prompts, topicNames: names, signals });
  if (!candidates.length) return { candidates: 0, created: 0 };
  return pg.tx(async (client) => {
    await client.query('SELECT pg_advisory_xact_lock(hashtextextended($1, $2))', [brand.id, SUGGESTIONS_LOCK_SEED]);
    const { rows: seen } = await client.query<{ normalized_name: string; status: string }>(
      'SELECT normalized_name, status FROM topic_suggestions WHERE brand_id = $1',
      [brand.id],
    );
    const known = new Set(seen.map((s) => s.normalized_name));
    const slots = MAX_PENDING - seen.filter((s) => s.status === 'pending').length;
    const fresh = candidates.filter((c) => !known.has(c.normalized)).slice(0, Math.max(0, slots));
    // Best last: within a batch the newest-first list then shows the strongest suggestion on top.
    for (const c of [...fresh].reverse()) {
      await client.query(
        `INSERT INTO topic_suggestions (id, organization_id, brand_id, name, normalized_name, reason, source)
         VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT (brand_id, normalized_name) DO NOTHING`,
        [randomUUID(), brand.organization_id, brand.id, c.name, c.normalized, c.reason, c.source],
      );
    }
    return { candidates: candidates.length, created: fresh.length };
  });
}

// ---- the API side ------------------------------------------------------------------------------

export async function pendingSuggestions(pg: Postgres, brandId: string) {
  const { rows } = await pg.query<{ id: string; name: string; reason: string; generated_at: Date }>(
    `SELECT id, name, reason, generated_at FROM topic_suggestions
      WHERE brand_id = $1 AND status = 'pending' ORDER BY generated_at DESC, created_seq DESC`,
    [brandId],
  );
  return rows.map((r) => ({ ...r, generated_at: new Date(r.generated_at).toISOString() }));
}

/**
 * Accepts a pending suggestion and creates its topic, in one transaction. The status condition
 * makes it exclusive: of two concurrent accepts one finds it no longer pending and gets the 404.
 * A topic of the same name made meanwhile (e.g. by `apply`) is reused, never duplicated.
 */
export async function acceptSuggestion(pg: Postgres, organizationId: string | null, id: string) {
  if (!organizationId || !UUID_RE.test(id)) throw notFound(SUGGESTION_NOT_FOUND);
  return pg.tx(async (client) => {
    const { rows } = await client.query<{ brand_id: string; name: string }>(
      `UPDATE topic_suggestions SET status = 'added', processed_at = clock_timestamp()
        WHERE id = $1 AND organization_id = $2 AND status = 'pending' RETURNING brand_id, name`,
      [id.toLowerCase(), organizationId],
    );
    if (!rows[0]) throw notFound(SUGGESTION_NOT_FOUND);
    const { brand_id, name } = rows[0];
    const topic = await ensureTopic(client, brand_id, name);
    await client.query('UPDATE topic_suggestions SET topic_id = $2 WHERE id = $1', [id.toLowerCase(), topic.id]);
    return { suggestion_id: id.toLowerCase(), topic_id: topic.id, topic_name: topic.name };
  });
}

export async function dismissSuggestion(pg: Postgres, organizationId: string | null, id: string) {
  if (!organizationId || !UUID_RE.test(id)) throw notFound(SUGGESTION_NOT_FOUND);
  const { rows } = await pg.query<{ id: string }>(
    `UPDATE topic_suggestions SET status = 'dismissed', processed_at = clock_timestamp()
      WHERE id = $1 AND organization_id = $2 AND status = 'pending' RETURNING id`,
    [id.toLowerCase(), organizationId],
  );
  if (!rows[0]) throw notFound(SUGGESTION_NOT_FOUND);
  return { id: rows[0].id, status: 'dismissed' as const };
}
