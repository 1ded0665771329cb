// The answers explorer: the answers behind a figure, read from the address with the answers
// operation's own parameters (date_from, date_to, model, region, topic_id, prompt_id, platform,
// mode, mentioned with sentiment, cited, domain, url, q, gap, untracked), newest first, under the operation's
// `total` of answers matching ("130 answers"): a figure's link opens exactly the answers it
// counts. Pages follow the operation's cursor ("Load more" appends the next page, so nothing is
// skipped or repeated); the CSV walks every page at these filters.
import { useEffect, useState } from 'preact/hooks';
import { messageOf, read } from '../api.ts';
import { useApp } from '../context.ts';
import { utcDay } from '../format.ts';
import { filterParams, useFilters } from '../filters.ts';
import { useLoad } from '../load.ts';
import { navigate, useLocation } from '../router.ts';
import { type Answer, AnswerCard } from '../components/answer-card.tsx';
import { FilterBar } from '../components/filter-bar.tsx';
import { QuerySelect } from '../components/query-select.tsx';
import { PageHead, Problem, Empty } from '../components/page.tsx';
import { downloadText } from '../csv.ts';
import { type Column, tableCsv } from '../components/data-table.tsx';
import type { PageProps } from '../page-props.ts';
import { PLATFORMS, platformName } from '../../tenancy/tracked.ts';
import '../honest-figures.css';

/** The explorer's own parameters, beside the filter bar's. */
const OWN = [
  'prompt_id',
  'platform',
  'mode',
  'mentioned',
  'sentiment',
  'cited',
  'domain',
  'url',
  'q',
  'gap',
  'untracked',
] as const;
const PAGE = 20;
const CSV_PAGE = '100';

/** The words filter: typed, then applied to the address on submit (an empty one removes it). */
function WordsFilter() {
  const { path, query } = useLocation();
  const [words, setWords] = useState(query.get('q') ?? '');
  useEffect(() => setWords(query.get('q') ?? ''), [query.get('q')]);
  const submit = (e: Event) => {
    e.preventDefault();
    const next = new URLSearchParams(query);
    if (words.trim()) next.set('q', words.trim());
    else next.delete('q');
    const qs = next.toString();
    navigate(`${path}${qs ? `?${qs}` : ''}`);
  };
  return (
    <form class="filter filter-words" onSubmit={submit}>
      <label for="filter-q">Words</label>
      <span class="inline-field">
        <input
          id="filter-q"
          type="search"
          value={words}
          maxLength={200}
          placeholder="All of these words"
          onInput={(e) => setWords(e.currentTarget.value)}
        />
        <button type="submit">Search</button>
      </span>
    </form>
  );
}

const CSV_COLUMNS: Column<Answer>[] = [
  { key: 'id', label: 'id' },
  { key: 'collected_at', label: 'collected_at' },
  { key: 'platform', label: 'platform' },
  { key: 'model_used', label: 'model_used' },
  { key: 'region', label: 'region' },
  { key: 'mode', label: 'mode' },
  { key: 'prompt_id', label: 'prompt_id' },
  { key: 'prompt_text', label: 'prompt_text' },
  { key: 'text', label: 'text' },
  {
    key: 'entities',
    label: 'entities',
    csv: (a) =>
      a.entities
        .filter((e) => e.mentions > 0)
        .map((e) => `${e.name} (position ${e.position ?? '-'}, ${e.sentiment ?? 'not assessed'})`)
        .join('; '),
  },
  { key: 'citations', label: 'citations', csv: (a) => a.citations.map((c) => c.url).join(' ') },
];

export function AnswersPage(p: PageProps) {
  const { brand } = useApp();
  const brandId = p.params.brandId;
  const [filters] = useFilters();
  const { query } = useLocation();
  const own = Object.fromEntries(OWN.map((k) => [k, query.get(k) ?? ''])) as Record<(typeof OWN)[number], string>;
  const params = { brand_id: brandId, ...filterParams(filters), ...own };
  const key = JSON.stringify(params);

  const lists = useLoad(
    () =>
      Promise.all([read('competitors', { brand_id: brandId }), read('prompts', { brand_id: brandId, limit: '500' })]),
    [brandId],
  );
  const [competitors, prompts] = lists.data ?? [[], []];
  const aliases = new Map(competitors.map((c) => [c.id, c.aliases]));

  const [answers, setAnswers] = useState<Answer[]>([]);
  const [next, setNext] = useState<string | null>(null);
  const [total, setTotal] = useState<number>();
  const [state, setState] = useState<{ loading: boolean; error?: string }>({ loading: true });
  const [csv, setCsv] = useState<{ busy: boolean; error?: string }>({ busy: false });

  useEffect(() => {
    let current = true;
    setAnswers([]);
    setNext(null);
    setTotal(undefined);
    setState({ loading: true });
    read('answers', { ...params, limit: String(PAGE) }).then(
      (page) => {
        if (!current) return;
        setAnswers(page.answers);
        setTotal(page.total);
        setNext(page.next_cursor);
        setState({ loading: false });
      },
      (err) => current && setState({ loading: false, error: messageOf(err) }),
    );
    return () => {
      current = false;
    };
  }, [key]);

  const loadMore = async () => {
    if (!next) return;
    setState({ loading: true });
    try {
      const page = await read('answers', { ...params, limit: String(PAGE), cursor: next });
      setAnswers((a) => [...a, ...page.answers]);
      setNext(page.next_cursor);
      setState({ loading: false });
    } catch (err) {
      setState({ loading: false, error: messageOf(err) });
    }
  };

  const downloadAll = async () => {
    setCsv({ busy: true });
    try {
      const all: Answer[] = [];
      let cursor: string | undefined;
      do {
        const page = await read('answers', { ...params, limit: CSV_PAGE, cursor });
        all.push(...page.answers);
        cursor = page.next_cursor ?? undefined;
      } while (cursor);
      downloadText('answers.csv', tableCsv(CSV_COLUMNS, all));
      setCsv({ busy: false });
    } catch (err) {
      setCsv({ busy: false, error: `The CSV could not be made: ${messageOf(err)}` });
    }
  };

  const entityOptions = [
    { value: 'brand', label: brand?.name ?? 'The brand' },
    ...competitors.map((c) => ({ value: c.id, label: c.name })),
  ];
  const mentionedOptions = [
    { value: 'brand', label: brand?.name ?? 'The brand' },
    ...competitors.map((c) => ({ value: c.id, label: c.name })),
    { value: 'none', label: 'No tracked name' },
  ];

  return (
    <>
      <PageHead
        title="Answers"
        intro={
          `${brand?.name ?? ''}: ${utcDay(filters.date_from)} – ${utcDay(filters.date_to)} (UTC days), ` +
          'newest first'
        }
      >
        <button type="button" onClick={downloadAll} disabled={csv.busy}>
          {csv.busy ? 'Preparing CSV…' : 'Download CSV'}
        </button>
      </PageHead>
      <FilterBar brandId={brandId} />
      <fieldset class="filter-bar filter-bar-own">
        <legend class="sr-only">Which answers</legend>
        <QuerySelect
          name="mentioned"
          label="Naming"
          all="Any or none"
          options={mentionedOptions}
          clears={['sentiment']}
        />
        {/* A sentiment is that of the name chosen: offered once one is. */}
        {own.mentioned && own.mentioned !== 'none' && (
          <QuerySelect
            name="sentiment"
            label="Sentiment"
            all="Any sentiment"
            options={['positive', 'neutral', 'negative'].map((x) => ({
              value: x,
              label: x[0].toUpperCase() + x.slice(1),
            }))}
          />
        )}
        <QuerySelect name="cited" label="Citing the site of" all="Any or none" options={entityOptions} />
        <QuerySelect
          name="platform"
          label="Platform"
          all="All platforms"
          options={PLATFORMS.map((x) => ({ value: x, label: platformName(x) }))}
        />
        {/* An untracked brand's answers are of both modes (its count reads shopping cards too) unless one
            is chosen. */}
        <QuerySelect
          name="mode"
          label="Mode"
          all={own.untracked ? 'Standard and shopping' : 'Standard'}
          options={[
            ...(own.untracked ? [{ value: 'standard', label: 'Standard' }] : []),
            { value: 'shopping', label: 'Shopping' },
          ]}
        />
        <QuerySelect
          name="prompt_id"
          id="filter-prompt"
          label="Prompt"
          all="All prompts"
          options={prompts.map((x) => ({
            value: x.id,
            label: x.text.length > 70 ? `${x.text.slice(0, 70)}…` : x.text,
          }))}
        />
        {/* A cited domain comes from a link (a top or gap domain); here it can only be cleared. */}
        {own.domain && <QuerySelect name="domain" label="Citing" all="Any domain" options={[]} />}
        {/* A cited page comes from a link (a top or gap page's count); here it can only be cleared. */}
        {own.url && <QuerySelect name="url" label="Citing the page" all="Any page" options={[]} />}
        {/* An untracked brand's answers come from its count's link; here they can only be cleared. */}
        {own.untracked && <QuerySelect name="untracked" label="Naming, untracked" all="Any answer" options={[]} />}
        {own.gap && (
          <QuerySelect
            name="gap"
            label="Citation gap"
            all="Any answer"
            options={[{ value: 'true', label: 'A competitor named, not you' }]}
          />
        )}
        <WordsFilter />
      </fieldset>
      {csv.error && <Problem message={csv.error} />}
      {state.error && <Problem message={state.error} />}
      <section class="panel answers-panel" aria-label="Answer list" aria-busy={state.loading}>
        <p class="answers-total" data-total={total}>
          {total === undefined ? '\u00a0' : `${total.toLocaleString('en')} ${total === 1 ? 'answer' : 'answers'}`}
        </p>
        {!state.loading && !state.error && !answers.length && <Empty>No answers match these filters.</Empty>}
        <div class="answers">
          {answers.map((a) => (
            <AnswerCard key={a.id} answer={a} aliases={aliases} headingLevel={2} provenance />
          ))}
        </div>
        <p class="muted" role="status">
          {state.loading
            ? 'Loading…'
            : answers.length
              ? `${answers.length} of ${total ?? answers.length} answers shown${next ? '' : ', all of them'}.`
              : ''}
        </p>
        {next && !state.loading && (
          <button type="button" class="wide" onClick={loadMore}>
            Load more
          </button>
        )}
      </section>
    </>
  );
}
