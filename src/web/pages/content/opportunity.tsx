// One content opportunity: what it is, its status (changed with the status operation), its brief
// and a draft. Briefs and drafts are generated only when asked (each uses one of the month's
// allowance; 402 and 429 are shown as the API words them) and are shown as text: the draft's HTML
// is its source, never rendered.
import { useState } from 'preact/hooks';
import { change, messageOf, read } from '../../api.ts';
import type { Result } from '../../operation-types.ts';
import { dateTime, figure } from '../../format.ts';
import { useLoad } from '../../load.ts';
import { Select } from '../../components/field.tsx';
import { followLink } from '../../router.ts';
import { Loading, Problem } from '../../components/page.tsx';

export const STATUSES = ['new', 'sent', 'in_progress', 'done', 'dismissed'] as const;
export type Status = (typeof STATUSES)[number];
export const STATUS_WORDS: Record<Status, string> = {
  new: 'New',
  sent: 'Sent',
  in_progress: 'In progress',
  done: 'Done',
  dismissed: 'Dismissed',
};

/** Types and impacts in words. */
export const WORDS: Record<string, string> = {
  owned: 'Owned',
  earned: 'Earned',
  high: 'High',
  medium: 'Medium',
  low: 'Low',
};

type Opportunity = Result<'content-opportunity'>;
type Brief = Result<'content-brief'>['brief'];
type Draft = Result<'content-draft'>['content'];

function BriefText(p: { brief: Brief }) {
  const b = p.brief;
  return (
    <div class="generated">
      <dl class="facts">
        <div>
          <dt>Suggested title</dt>
          <dd>{b.suggestedTitle}</dd>
        </div>
        <div>
          <dt>Content type</dt>
          <dd>{b.contentType}</dd>
        </div>
        <div>
          <dt>Target length</dt>
          <dd>{b.targetWordCount} words</dd>
        </div>
      </dl>
      <h4>Outline</h4>
      <ol>
        {b.outline.map((line, i) => (
          <li key={i}>{line}</li>
        ))}
      </ol>
      <h4>Target keywords</h4>
      <p>{b.targetKeywords.join(', ')}</p>
      <h4>Competitor insights</h4>
      <p class="answer-text">{b.competitorInsights}</p>
      <h4>Call to action</h4>
      <p class="answer-text">{b.callToAction}</p>
    </div>
  );
}

/** Generated markup as its source: a read-only text box (text, never rendered; easy to select and copy). */
function SourceText(p: { id: string; label: string; text: string }) {
  return (
    <div class="field source-text">
      <label for={p.id}>{p.label}</label>
      <textarea id={p.id} readOnly rows={12} spellcheck={false} value={p.text} />
    </div>
  );
}

function DraftText(p: { draft: Draft }) {
  const d = p.draft;
  return (
    <div class="generated">
      <dl class="facts">
        <div>
          <dt>Title</dt>
          <dd>{d.title}</dd>
        </div>
        <div>
          <dt>Meta title</dt>
          <dd>{d.metaTitle}</dd>
        </div>
        <div>
          <dt>Meta description</dt>
          <dd>{d.metaDescription}</dd>
        </div>
        <div>
          <dt>Slug</dt>
          <dd class="mono">{d.slug}</dd>
        </div>
      </dl>
      <h4>Key takeaways</h4>
      <ul>
        {d.keyTakeaways.map((line, i) => (
          <li key={i}>{line}</li>
        ))}
      </ul>
      <SourceText id="draft-html" label="Article (HTML source)" text={d.contentHtml} />
      <h4>FAQs</h4>
      <dl class="faqs">
        {d.faqs.map((f, i) => (
          <div key={i}>
            <dt>{f.question}</dt>
            <dd>{f.answer}</dd>
          </div>
        ))}
      </dl>
      <SourceText id="draft-jsonld" label="Structured data (JSON-LD)" text={d.structuredDataJsonLd} />
    </div>
  );
}

function StatusForm(p: { opportunity: Opportunity; onChanged: () => void }) {
  const [status, setStatus] = useState<Status>(p.opportunity.status);
  const [note, setNote] = useState<{ ok: boolean; text: string }>();
  const [busy, setBusy] = useState(false);
  const save = async (e: Event) => {
    e.preventDefault();
    setBusy(true);
    try {
      const r = await change('content-opportunity-status', {
        id: p.opportunity.id,
        status,
      });
      setNote({ ok: true, text: `Status set to ${STATUS_WORDS[r.status]} (${dateTime(r.updated_at)}).` });
      p.onChanged();
    } catch (err) {
      setNote({ ok: false, text: messageOf(err) });
    }
    setBusy(false);
  };
  return (
    <form class="inline-form status-form" onSubmit={save} aria-label="Change status">
      <Select
        id="opportunity-status"
        label="Set status to"
        value={status}
        options={STATUSES.map((s) => ({ value: s, label: STATUS_WORDS[s] }))}
        onChange={(v) => setStatus(v as Status)}
      />
      <div class="actions">
        <button type="submit" disabled={busy || status === p.opportunity.status}>
          Change status
        </button>
      </div>
      {note &&
        (note.ok ? (
          <p role="status" class="quota-line">
            {note.text}
          </p>
        ) : (
          <Problem message={note.text} />
        ))}
    </form>
  );
}

export function OpportunityView(p: {
  id: string;
  quotaLine: (kind: 'briefs' | 'drafts') => string;
  onChanged: () => void;
  /** The page without this opportunity open. */
  closeHref: string;
}) {
  const opp = useLoad(() => read('content-opportunity', { id: p.id }), [p.id]);
  const [brief, setBrief] = useState<{ brief: Brief; at: string }>();
  const [draft, setDraft] = useState<{ draft: Draft; at: string }>();
  const [busy, setBusy] = useState<'brief' | 'draft'>();
  const [problem, setProblem] = useState<{ kind: 'brief' | 'draft'; message: string }>();
  const o = opp.data;
  if (opp.error) return <Problem message={opp.error} />;
  if (!o || o.id !== p.id) return <Loading />;
  const shownBrief = brief?.brief ?? o.brief;

  const generate = async (kind: 'brief' | 'draft') => {
    setBusy(kind);
    setProblem(undefined);
    try {
      if (kind === 'brief') {
        const r = await change('content-brief', { id: o.id });
        setBrief({ brief: r.brief, at: r.generated_at });
      } else {
        const r = await change('content-draft', { id: o.id });
        setDraft({ draft: r.content, at: r.generated_at });
      }
      p.onChanged();
    } catch (err) {
      setProblem({ kind, message: messageOf(err) });
    }
    setBusy(undefined);
  };

  return (
    <section class="panel" aria-labelledby="opportunity-title">
      <div class="panel-head">
        <h2 id="opportunity-title">{o.title}</h2>
        <div class="actions">
          <span class="badge">{STATUS_WORDS[o.status]}</span>
          <a href={p.closeHref} onClick={followLink}>
            Close
          </a>
        </div>
      </div>
      <p>{o.description}</p>
      <dl class="facts">
        <div>
          <dt>Prompt</dt>
          <dd>{o.prompt_text}</dd>
        </div>
        <div>
          <dt>Type</dt>
          <dd>{WORDS[o.type]}</dd>
        </div>
        <div>
          <dt>Impact</dt>
          <dd>{WORDS[o.impact]}</dd>
        </div>
        <div>
          <dt>Score</dt>
          <dd>{figure(o.opportunity_score)} / 100</dd>
        </div>
        <div>
          <dt>Updated</dt>
          <dd>{dateTime(o.updated_at)}</dd>
        </div>
      </dl>
      {/* Keyed by the opportunity, not its status: the form's note must outlive the reload it causes. */}
      <StatusForm
        key={o.id}
        opportunity={o}
        onChanged={() => {
          opp.reload();
          p.onChanged();
        }}
      />

      <section class="subsection" aria-labelledby="brief-heading">
        <div class="panel-head">
          <h3 id="brief-heading">Brief</h3>
          <button type="button" class="primary" onClick={() => generate('brief')} disabled={!!busy}>
            {busy === 'brief' ? 'Generating brief…' : shownBrief ? 'Generate a new brief' : 'Generate brief'}
          </button>
        </div>
        <p class="quota-line">{p.quotaLine('briefs')}</p>
        {problem?.kind === 'brief' && <Problem message={problem.message} />}
        {brief && (
          <p role="status" class="muted">
            Brief generated {dateTime(brief.at)}.
          </p>
        )}
        {shownBrief ? <BriefText brief={shownBrief} /> : <p class="empty">No brief yet.</p>}
      </section>

      <section class="subsection" aria-labelledby="draft-heading">
        <div class="panel-head">
          <h3 id="draft-heading">Draft</h3>
          <button type="button" class="primary" onClick={() => generate('draft')} disabled={!!busy}>
            {busy === 'draft' ? 'Generating draft…' : draft ? 'Generate a new draft' : 'Generate draft'}
          </button>
        </div>
        <p class="quota-line">{p.quotaLine('drafts')}</p>
        {problem?.kind === 'draft' && <Problem message={problem.message} />}
        {draft ? (
          <>
            <p role="status" class="muted">
              Draft generated {dateTime(draft.at)}. The API reads back only the brief later, so copy the draft now.
            </p>
            <DraftText draft={draft.draft} />
          </>
        ) : (
          <p class="empty">
            {shownBrief
              ? 'A draft is written from the brief above.'
              : 'A draft is written from a brief: generate the brief first.'}
          </p>
        )}
      </section>
    </section>
  );
}
