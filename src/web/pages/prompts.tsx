// Prompts: each tracked prompt with answers in range, as prompt-performance gives it (answers,
// mentions, citations, and the brand beside its best competitor on one basis: prompt-basis.tsx), sorted as the
// API sorts (sort_by and order kept in the address), each leading to its answers (prompt_id).
// Below, the brand's tracked prompts (prompts) that have no answer at these filters.
import { read } from '../api.ts';
import { answersHref } from '../answers-link.ts';
import { filterParams, useFilters } from '../filters.ts';
import { useLoad } from '../load.ts';
import { followLink, navigate, useLocation } from '../router.ts';
import { BarLabel, DataTable } from '../components/data-table.tsx';
import { FilterBar } from '../components/filter-bar.tsx';
import { PageHead, Panel, Pending } from '../components/page.tsx';
import type { PageProps } from '../page-props.ts';
import { AppLink } from './figure-parts.tsx';
import type { PromptRow } from './overview/prompts.tsx';
import { basisColumns } from './prompt-basis.tsx';

/**
 * Each sort orders by a column shown, named as its header: prompt-performance's `visibility` is the
 * seed's mean of per-answer scores, which the table does not show, so it is not offered.
 */
const SORTS = [
  { value: 'ai_visibility_score', label: 'Your score' },
  { value: 'mention_rate', label: 'Your mention rate' },
  { value: 'appearances', label: 'Answers' },
  { value: 'mentions', label: 'Mentions' },
  { value: 'citations', label: 'Citations' },
];

/** The API's most: prompt-performance lists at most 100 prompts. */
const LIMIT = '100';

export function PromptsPage(p: PageProps) {
  const brandId = p.params.brandId;
  const { path, query } = useLocation();
  const [filters] = useFilters();
  const sortBy = SORTS.some((s) => s.value === query.get('sort_by'))
    ? (query.get('sort_by') as string)
    : SORTS[0].value;
  const order = query.get('order') === 'asc' ? 'asc' : 'desc';
  const base = { brand_id: brandId, ...filterParams(filters) };
  const key = JSON.stringify([base, sortBy, order]);
  const perf = useLoad(() => read('prompt-performance', { ...base, sort_by: sortBy, order, limit: LIMIT }), [key]);
  const tracked = useLoad(
    () => read('prompts', { brand_id: brandId, topic_id: filters.topic_id, limit: '500' }),
    [brandId, filters.topic_id],
  );
  const setQuery = (change: Record<string, string>) => {
    const next = new URLSearchParams(query);
    for (const [k, v] of Object.entries(change)) next.set(k, v);
    navigate(`${path}?${next}`);
  };
  const href = (promptId: string) => answersHref(brandId, { ...filterParams(filters), prompt_id: promptId });
  const rows = perf.data?.prompts ?? [];
  const answered = new Set(rows.map((r) => r.prompt_id));
  const silent = (tracked.data ?? []).filter((t) => !answered.has(t.id));
  return (
    <>
      <PageHead title="Prompts" intro="How the brand fares on each tracked prompt, at these filters." />
      <FilterBar brandId={brandId} />
      <Panel title="Prompt performance">
        <div class="panel-tools">
          <div class="field">
            <label for="prompts-sort">Sort by</label>
            <select id="prompts-sort" value={sortBy} onChange={(e) => setQuery({ sort_by: e.currentTarget.value })}>
              {SORTS.map((s) => (
                <option key={s.value} value={s.value}>
                  {s.label}
                </option>
              ))}
            </select>
          </div>
          <div class="field">
            <label for="prompts-order">Order</label>
            <select id="prompts-order" value={order} onChange={(e) => setQuery({ order: e.currentTarget.value })}>
              <option value="desc">Highest first</option>
              <option value="asc">Lowest first</option>
            </select>
          </div>
        </div>
        <Pending load={perf} />
        {perf.data && (
          <DataTable
            caption="Prompt performance"
            csvName="prompts"
            rows={rows}
            rowKey={(r) => r.prompt_id}
            empty="No answers to any tracked prompt at these filters."
            columns={[
              {
                key: 'prompt_text',
                label: 'Prompt',
                render: (r) => (
                  <BarLabel value={r.ai_visibility_score ?? 0} max={100}>
                    <AppLink href={href(r.prompt_id)} label={`${r.prompt_text}: its answers`}>
                      {r.prompt_text}
                    </AppLink>
                  </BarLabel>
                ),
              },
              { key: 'topic_name', label: 'Topic', render: (r) => r.topic_name ?? '—' },
              {
                key: 'result_count',
                label: 'Answers',
                align: 'right',
                render: (r) => (
                  <AppLink href={href(r.prompt_id)} label={`${r.result_count} answers to ${r.prompt_text}`}>
                    {r.result_count}
                  </AppLink>
                ),
              },
              ...basisColumns<PromptRow>((id, mentioned) =>
                answersHref(brandId, { ...filterParams(filters), prompt_id: id, mentioned }),
              ),
              { key: 'total_mentions', label: 'Mentions', align: 'right' },
              { key: 'total_citations', label: 'Citations', align: 'right' },
            ]}
          />
        )}
        <p class="hint">
          Scores are 0-100 AI visibility scores; every figure of a row is over that prompt's answers, yours and your
          best competitor's alike. The API lists at most 100 prompts, and so does the CSV.
        </p>
      </Panel>
      {tracked.data && perf.data && silent.length > 0 && (
        <Panel title="Prompts without answers">
          <DataTable
            caption="Tracked prompts with no answer at these filters"
            csvName="prompts-without-answers"
            rows={silent}
            rowKey={(r) => r.id}
            columns={[
              { key: 'text', label: 'Prompt' },
              { key: 'topic_name', label: 'Topic', render: (r) => r.topic_name ?? '—' },
              {
                key: 'is_active',
                label: 'State',
                render: (r) => (r.is_active ? 'Active' : 'Inactive'),
                csv: (r) => (r.is_active ? 'active' : 'inactive'),
              },
            ]}
          />
          <p class="hint">
            Change or add prompts in the{' '}
            <a href={`/app/brands/${encodeURIComponent(brandId)}/settings`} onClick={followLink}>
              workspace settings
            </a>
            .
          </p>
        </Panel>
      )}
    </>
  );
}
