// A brand's overview: the figures of visibility-summary and the latest answers, as the API gives
// them for all of the brand's history. The dashboard (filters, trends, intervals) builds on this.
import { read } from '../api.ts';
import { useApp } from '../context.ts';
import { figure, dateTime } from '../format.ts';
import { useLoad } from '../load.ts';
import { Empty, Loading, PageHead, Panel, Problem } from '../components/page.tsx';
import type { PageProps } from '../routes.ts';

interface Summary {
  totals: {
    resultCount: number;
    aiVisibilityScore: number | null;
    mentionAnswers: number;
    citationAnswers: number;
  };
  topCompetitors: { name: string; mentions: number; score: number | null }[];
}

interface Answer {
  id: string;
  prompt_text: string | null;
  platform: string;
  model_used: string;
  collected_at: string;
  text: string;
  citations: { url: string; title: string; domain: string }[];
}

/** A citation is a link only when it is http(s); anything else is shown as text. */
function Citation(p: { url: string; title: string }) {
  const label = p.title || p.url;
  return /^https?:\/\//i.test(p.url) ? (
    <a href={p.url} rel="noopener noreferrer nofollow" target="_blank">
      {label}
    </a>
  ) : (
    <span>{label}</span>
  );
}

function Card(p: { title: string; value: string; of?: string }) {
  return (
    <section class="card" aria-label={p.title}>
      <h2>{p.title}</h2>
      <p class="value">
        {p.value}
        {p.of && <span class="of"> {p.of}</span>}
      </p>
    </section>
  );
}

export function Overview(p: PageProps) {
  const { brand } = useApp();
  const brandId = p.params.brandId;
  const summary = useLoad(() => read<Summary>('visibility-summary', { brand_id: brandId }), [brandId]);
  const latest = useLoad(() => read<{ answers: Answer[] }>('answers', { brand_id: brandId, limit: '5' }), [brandId]);
  const t = summary.data?.totals;
  return (
    <>
      <PageHead title={brand?.name ?? 'Overview'} intro="All history. Every figure is the API's visibility summary." />
      {summary.error && <Problem message={summary.error} />}
      {!summary.data && !summary.error && <Loading />}
      {t && (
        <div class="cards">
          <Card title="AI visibility score" value={figure(t.aiVisibilityScore)} of="/ 100" />
          <Card title="Answers" value={figure(t.resultCount)} />
          <Card title="Answers naming the brand" value={figure(t.mentionAnswers)} />
          <Card title="Answers citing the brand" value={figure(t.citationAnswers)} />
        </div>
      )}
      {summary.data && (
        <Panel title="Top competitors">
          {summary.data.topCompetitors.length ? (
            <table>
              <thead>
                <tr>
                  <th scope="col">Competitor</th>
                  <th scope="col">Mentions</th>
                  <th scope="col">Visibility score</th>
                </tr>
              </thead>
              <tbody>
                {summary.data.topCompetitors.map((c) => (
                  <tr key={c.name}>
                    <td>{c.name}</td>
                    <td class="num">{c.mentions}</td>
                    <td class="num">{figure(c.score)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          ) : (
            <Empty>No competitor is named in these answers.</Empty>
          )}
        </Panel>
      )}
      <Panel title="Latest answers">
        {latest.error && <Problem message={latest.error} />}
        {latest.data && !latest.data.answers.length && <Empty>No answers yet.</Empty>}
        {latest.data && latest.data.answers.length > 0 && (
          <ul class="list-plain">
            {latest.data.answers.map((a) => (
              <li key={a.id}>
                <h3>{a.prompt_text ?? 'Prompt no longer tracked'}</h3>
                <p class="muted">
                  {a.platform} · {a.model_used} · {dateTime(a.collected_at)}
                </p>
                <p class="answer-text">{a.text}</p>
                {a.citations.length > 0 && (
                  <p>
                    <span class="muted">Cited: </span>
                    {a.citations.map((c, i) => (
                      <span key={c.url}>
                        {i > 0 && ', '}
                        <Citation url={c.url} title={c.title} />
                      </span>
                    ))}
                  </p>
                )}
              </li>
            ))}
          </ul>
        )}
      </Panel>
    </>
  );
}
