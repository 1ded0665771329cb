// Content opportunities: the list the content-opportunities operation gives (filtered by its own
// status, impact and type, kept in the address), this month's brief and draft allowance from the
// usage operation, and the opportunity in view (?opportunity=ID) with its brief, draft and status.
import { read } from '../../api.ts';
import type { Result } from '../../operation-types.ts';
import { day, figure } from '../../format.ts';
import { useLoad } from '../../load.ts';
import { DataTable } from '../../components/data-table.tsx';
import { OpenLink } from '../../components/open-link.tsx';
import { QuotaCard, quotaWords } from '../../components/quota.tsx';
import { QuerySelect } from '../../components/query-select.tsx';
import { PageHead, Panel, Pending, Problem } from '../../components/page.tsx';
import type { PageProps } from '../../page-props.ts';
import { OpportunityView, STATUSES, STATUS_WORDS, WORDS } from './opportunity.tsx';
import '../activity.css';

type OpportunityItem = Result<'content-opportunities'>[number];

/** The operation's largest page: the list has no cursor, so the table and its CSV hold up to this many. */
const LIST_LIMIT = '200';

const FILTERS = ['status', 'impact', 'type'] as const;

export function ContentPage(p: PageProps) {
  const brandId = p.params.brandId;
  const openId = p.query.get('opportunity') ?? undefined;
  const filters = Object.fromEntries(FILTERS.map((f) => [f, p.query.get(f) ?? ''])) as Record<
    (typeof FILTERS)[number],
    string
  >;
  const key = JSON.stringify(filters);
  const list = useLoad(
    () => read('content-opportunities', { brand_id: brandId, ...filters, limit: LIST_LIMIT }),
    [brandId, key],
  );
  const usage = useLoad(() => read('usage'), []);
  const base = `/app/brands/${encodeURIComponent(brandId)}/content-opportunities`;
  const hrefWith = (change: Record<string, string | undefined>) => {
    const q = new URLSearchParams(p.query);
    for (const [k, v] of Object.entries(change)) {
      if (v) q.set(k, v);
      else q.delete(k);
    }
    const qs = q.toString();
    return qs ? `${base}?${qs}` : base;
  };
  const quotaLine = (kind: 'briefs' | 'drafts') =>
    usage.data ? quotaWords(usage.data[kind], kind === 'briefs' ? 'briefs' : 'drafts') : (usage.error ?? '');
  const refresh = () => {
    list.reload();
    usage.reload();
  };
  return (
    <>
      <PageHead
        title="Content opportunities"
        intro="Prompts where AI answers name or cite competitors and not the brand, highest opportunity score first."
      />
      <search class="filter-bar" aria-label="Filters">
        <QuerySelect
          name="status"
          label="Status"
          all="All statuses"
          options={STATUSES.map((s) => ({ value: s, label: STATUS_WORDS[s] }))}
        />
        <QuerySelect
          name="impact"
          label="Impact"
          all="All impacts"
          options={[
            { value: 'high', label: 'High' },
            { value: 'medium', label: 'Medium' },
            { value: 'low', label: 'Low' },
          ]}
        />
        <QuerySelect
          name="type"
          label="Type"
          all="Owned and earned"
          options={[
            { value: 'owned', label: 'Owned (a page on your site)' },
            { value: 'earned', label: 'Earned (coverage elsewhere)' },
          ]}
        />
      </search>
      {usage.data && (
        <div class="cards">
          <QuotaCard title="Content briefs this month" label="Content briefs" quota={usage.data.briefs} meter={false} />
          <QuotaCard title="Content drafts this month" label="Content drafts" quota={usage.data.drafts} meter={false} />
        </div>
      )}
      {usage.error && <Problem message={usage.error} />}
      {openId && (
        <OpportunityView
          id={openId}
          quotaLine={quotaLine}
          onChanged={refresh}
          closeHref={hrefWith({ opportunity: undefined })}
        />
      )}
      <Panel title="Opportunities">
        <Pending load={list} />
        {list.data && (
          <DataTable
            caption="Content opportunities, highest score first"
            csvName="content-opportunities"
            undated
            class="opportunities"
            columns={[
              {
                key: 'title',
                label: 'Opportunity',
                render: (o: OpportunityItem) => (
                  <OpenLink href={hrefWith({ opportunity: o.id })} open={o.id === openId}>
                    {o.title}
                  </OpenLink>
                ),
              },
              { key: 'prompt_text', label: 'Prompt', csvOnly: true },
              { key: 'type', label: 'Type', render: (o: OpportunityItem) => WORDS[o.type] },
              { key: 'impact', label: 'Impact', render: (o: OpportunityItem) => WORDS[o.impact] },
              {
                key: 'opportunity_score',
                label: 'Score',
                align: 'right',
                render: (o: OpportunityItem) => figure(o.opportunity_score),
              },
              {
                key: 'status',
                label: 'Status',
                render: (o: OpportunityItem) => STATUS_WORDS[o.status],
                csv: (o: OpportunityItem) => o.status,
              },
              {
                key: 'has_brief',
                label: 'Brief',
                render: (o: OpportunityItem) => (o.has_brief ? 'Yes' : 'No'),
                csv: (o: OpportunityItem) => (o.has_brief ? 'true' : 'false'),
              },
              {
                key: 'updated_at',
                label: 'Updated',
                render: (o: OpportunityItem) => day(o.updated_at),
                csv: (o: OpportunityItem) => o.updated_at,
              },
            ]}
            rows={list.data}
            empty="No opportunity matches these filters."
          />
        )}
      </Panel>
    </>
  );
}
