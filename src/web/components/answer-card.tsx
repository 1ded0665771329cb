// One AI answer as the explorer and the overview show it: where and when it was collected, its
// text (the safe markdown subset of answer-text.ts) with the tracked names marked, each tracked
// entity's sentiment, and its citations. Every value is rendered as text (Preact elements, never
// HTML); a link, in the text or a citation, only when its URL is http(s).
import { dateTime } from '../format.ts';
import type { Result } from '../operation-types.ts';
import { clipBlocks, type Inline, parseAnswer } from '../answer-text.ts';
import { highlight } from '../highlight.ts';
import { platformName } from '../../tenancy/tracked.ts';

export type Answer = Result<'answers'>['answers'][number];
export type AnswerEntity = Answer['entities'][number];
export type AnswerCitation = Answer['citations'][number];

/** Where an answer comes from, in words: its source, the adapter and model, and the analysis version. */
function provenanceOf(a: Answer): string {
  const from =
    a.source === 'capture'
      ? `Captured by ${a.engine_version ?? 'an unknown adapter'}`
      : a.source === 'import'
        ? 'Imported from an answer file'
        : `Imported from ${a.source}`;
  const model = a.provider_model ? ` · model ${a.provider_model}` : '';
  return `${from}${model}${a.analysis_version ? ` · analysis ${a.analysis_version}` : ''}`;
}

export const isWebUrl = (url: string) => /^https?:\/\//i.test(url);

/**
 * A citation: a link only when http(s); anything else (javascript:, data:...) is plain text, in
 * monospace unless `mono` is false (the citations page's tables keep the body font).
 */
export function CitationLink(p: { url: string; title?: string; mono?: boolean }) {
  const label = p.title || p.url;
  return isWebUrl(p.url) ? (
    <a href={p.url} rel="noopener noreferrer nofollow" target="_blank">
      {label}
    </a>
  ) : (
    <span class={p.mono === false ? undefined : 'mono'}>{label}</span>
  );
}

const SENTIMENT: Record<string, string> = { positive: 'Positive', neutral: 'Neutral', negative: 'Negative' };

/** The names to mark: each entity's name, plus the aliases the workspace gives (by entity id). */
export function namesOf(answer: Answer, aliases?: Map<string, string[]>): Map<string, string> {
  const names = new Map<string, string>();
  for (const e of answer.entities) {
    names.set(e.name, e.entity_id);
    for (const a of aliases?.get(e.entity_id) ?? []) names.set(a, e.entity_id);
  }
  return names;
}

/** Text with the tracked names marked (as text nodes inside <mark>, never as HTML). */
function Marked(p: { text: string; names: Map<string, string>; brandId?: string }) {
  return (
    <>
      {highlight(p.text, p.names).map((s, i) =>
        s.entity ? (
          <mark key={i} class={s.entity === p.brandId ? 'mark-brand' : undefined}>
            {s.text}
          </mark>
        ) : (
          s.text
        ),
      )}
    </>
  );
}

function Inlines(p: { content: Inline[]; names: Map<string, string>; brandId?: string }) {
  return (
    <>
      {p.content.map((x, i) => {
        if (x.kind === 'strong')
          return (
            <strong key={i}>
              <Inlines content={x.children} names={p.names} brandId={p.brandId} />
            </strong>
          );
        if (x.kind === 'ref')
          return (
            <sup key={i} class="answer-ref">
              {x.n}
            </sup>
          );
        const text = <Marked key={i} text={x.text} names={p.names} brandId={p.brandId} />;
        return x.kind === 'link' && x.href ? (
          <a key={i} href={x.href} rel="noopener noreferrer nofollow" target="_blank">
            {text}
          </a>
        ) : (
          text
        );
      })}
    </>
  );
}

/** An answer's text: the markdown subset of answer-text.ts as elements, the tracked names marked. */
export function AnswerText(p: { text: string; names: Map<string, string>; brandId?: string; clip?: number }) {
  const parsed = parseAnswer(p.text);
  const blocks = p.clip ? clipBlocks(parsed, p.clip) : parsed;
  const inline = (content: Inline[]) => <Inlines content={content} names={p.names} brandId={p.brandId} />;
  return (
    <div class="answer-text">
      {blocks.map((b, i) => {
        if (b.kind === 'heading')
          return (
            <p key={i} class="answer-heading">
              <strong>{inline(b.content)}</strong>
            </p>
          );
        if (b.kind === 'paragraph') return <p key={i}>{inline(b.content)}</p>;
        const items = b.items.map((item, j) => <li key={j}>{inline(item)}</li>);
        return b.ordered ? (
          <ol key={i} start={b.start}>
            {items}
          </ol>
        ) : (
          <ul key={i}>{items}</ul>
        );
      })}
    </div>
  );
}

export function AnswerCard(p: {
  answer: Answer;
  aliases?: Map<string, string[]>;
  /** Show the text's first characters only (a summary; the explorer shows it whole). */
  clip?: number;
  /** Show this many citations, and how many more there are. */
  maxCitations?: number;
  headingLevel?: 3 | 2;
  /** Say where the answer comes from (the answers page). */
  provenance?: boolean;
}) {
  const a = p.answer;
  const brand = a.entities.find((e) => e.is_brand);
  const named = a.entities.filter((e) => e.sentiment !== null || e.mentions > 0);
  const Heading = p.headingLevel === 2 ? 'h2' : 'h3';
  return (
    <article class="answer" aria-labelledby={`answer-${a.id}`} data-answer-id={a.id}>
      <Heading id={`answer-${a.id}`} class="answer-prompt">
        {a.prompt_text ?? 'Prompt no longer tracked'}
      </Heading>
      <p class="answer-meta muted">
        {platformName(a.platform)} · {a.model_used} · {a.region}
        {a.mode === 'shopping' ? ' · shopping' : ''} · <time dateTime={a.collected_at}>{dateTime(a.collected_at)}</time>
      </p>
      {p.provenance && <p class="answer-provenance muted">{provenanceOf(a)}</p>}
      <AnswerText text={a.text} names={namesOf(a, p.aliases)} brandId={brand?.entity_id} clip={p.clip} />
      {named.length > 0 && (
        <ul class="entity-list" aria-label="Tracked names in this answer">
          {named.map((e) => (
            <li key={e.entity_id} class={`entity sentiment-${e.sentiment ?? 'none'}`}>
              <span class="entity-name">{e.name}</span>
              {e.position !== null && <span class="muted"> #{e.position}</span>}
              <span class="entity-sentiment"> · {e.sentiment ? SENTIMENT[e.sentiment] : 'not named'}</span>
            </li>
          ))}
        </ul>
      )}
      {a.citations.length > 0 && (
        <div class="answer-citations">
          <p class="answer-label">Sources</p>
          <ol>
            {a.citations.slice(0, p.maxCitations ?? a.citations.length).map((c) => (
              <li key={c.url}>
                <CitationLink url={c.url} title={c.title} /> <span class="muted">{c.domain}</span>
              </li>
            ))}
          </ol>
          {p.maxCitations !== undefined && a.citations.length > p.maxCitations && (
            <p class="hint">and {a.citations.length - p.maxCitations} more</p>
          )}
        </div>
      )}
    </article>
  );
}
