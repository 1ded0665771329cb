// The filter bar every brand page puts under its heading: date range (last 7, 30 or 90 days, or
// from-to), platform/model, region, topic and, for a brand that imported another tracker's answers,
// source. Each control is labelled and changes the address at once (the page reads its filters
// from there). The choices come from the API: the brand's topics, the regions its prompts are
// captured in and the trackers it imported from (light reads, at once), and the model_used values its
// answers carry (competitor-comparison over all history, the values the model filter takes). That
// last one is a whole-history warehouse read, the heaviest on a cold server at a million answers, and
// no figure waits for it: it goes once the page's own reads are answered (read priority `idle`).
import { useEffect, useState } from 'preact/hooks';
import { read } from '../api.ts';
import type { Result } from '../operation-types.ts';
import { platformName } from '../../tenancy/tracked.ts';
import { type Filters, lastDays, useFilters, withoutFilters } from '../filters.ts';
import { navigate, useLocation } from '../router.ts';

interface Choices {
  models: { value: string; label: string }[];
  regions: string[];
  topics: { id: string; name: string }[];
}

// Read once per brand and page load: the lists change only when the workspace does.
const listsByBrand = new Map<string, Promise<Omit<Choices, 'models'>>>();
const modelsByBrand = new Map<string, Promise<Choices['models']>>();
const sourcesByBrand = new Map<string, Promise<Result<'import-sources'>>>();

/** The brand's imported sources, read again on next use: an import has just added one (Settings > Import). */
export function forgetImportSources(brandId: string): void {
  sourcesByBrand.delete(brandId);
}

const loadSources = (brandId: string) => read('import-sources', { brand_id: brandId }, 'first');

async function loadLists(brandId: string): Promise<Omit<Choices, 'models'>> {
  const [prompts, topics] = await Promise.all([
    read('prompts', { brand_id: brandId, limit: '500' }, 'first'),
    read('topics', { brand_id: brandId }, 'first'),
  ]);
  const regions = [...new Set(prompts.flatMap((p) => p.regions))].sort();
  return { regions, topics: topics.map((t) => ({ id: t.id, name: t.name })) };
}

async function loadModels(brandId: string): Promise<Choices['models']> {
  const comparison = await read('competitor-comparison', { brand_id: brandId }, 'idle');
  return comparison.share_of_voice.by_platform
    .map((m) => ({ value: m.model_used, label: `${platformName(m.platform)} · ${m.model_used}` }))
    .sort((a, b) => a.label.localeCompare(b.label));
}

/** Tries after a failed read of a list (the store busy, the network gone), a little apart. */
const RETRIES = 3;
const RETRY_MS = 5_000;

/** The brand's list from `cache`, read on first use; a failed read leaves the cache, to be tried again. */
function once<T>(cache: Map<string, Promise<T>>, brandId: string, load: (id: string) => Promise<T>): Promise<T> {
  let pending = cache.get(brandId);
  if (!pending) {
    pending = load(brandId);
    cache.set(brandId, pending);
    pending.catch(() => cache.delete(brandId));
  }
  return pending;
}

/** The trackers a brand imported answers from, as the Source choice lists them (read once per brand). */
export const importSourcesOf = (brandId: string) => once(sourcesByBrand, brandId, loadSources);

/**
 * The brand's value of a once-per-page-load list: undefined until loaded, `fallback` while it
 * failed. A failed read is tried again a few times: the lists are the filters' choices, and a
 * moment's refusal should not leave a select empty until the page is reloaded.
 */
function useOnce<T>(cache: Map<string, Promise<T>>, brandId: string, load: (id: string) => Promise<T>, fallback: T) {
  const [value, setValue] = useState<T>();
  useEffect(() => {
    let current = true;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const attempt = (left: number) => {
      once(cache, brandId, load).then(
        (v) => current && setValue(() => v),
        () => {
          if (!current) return;
          setValue(() => fallback);
          if (left > 0) timer = setTimeout(() => attempt(left - 1), RETRY_MS);
        },
      );
    };
    attempt(RETRIES);
    return () => {
      current = false;
      clearTimeout(timer);
    };
  }, [brandId]);
  return value;
}

function useChoices(brandId: string): Partial<Choices> & { sources?: Result<'import-sources'> } {
  const lists = useOnce(listsByBrand, brandId, loadLists, { regions: [], topics: [] });
  const models = useOnce(modelsByBrand, brandId, loadModels, []);
  const sources = useOnce(sourcesByBrand, brandId, loadSources, []);
  return { ...lists, models, sources };
}

const PRESETS = [7, 30, 90];

/** Which preset the dates are, relative to today; 'custom' when none. */
function presetOf(f: Filters): string {
  const preset = PRESETS.find((d) => {
    const r = lastDays(d);
    return r.date_from === f.date_from && r.date_to === f.date_to;
  });
  return preset ? String(preset) : 'custom';
}

/** A select whose current value is kept even before (or without) its choices being loaded. */
function Choice(p: {
  id: string;
  label: string;
  value: string | undefined;
  all: string;
  options: { value: string; label: string }[];
  onChange: (value: string | undefined) => void;
}) {
  const options =
    p.value && !p.options.some((o) => o.value === p.value)
      ? [...p.options, { value: p.value, label: p.value }]
      : p.options;
  return (
    <div class="filter">
      <label for={p.id}>{p.label}</label>
      <select id={p.id} value={p.value ?? ''} onChange={(e) => p.onChange(e.currentTarget.value || undefined)}>
        <option value="">{p.all}</option>
        {options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </select>
    </div>
  );
}

export type FilterName = 'dates' | 'model' | 'region' | 'topic' | 'source';

/** `only`: the filters the page's operation takes (e.g. ai-traffic takes dates alone); all by default. */
export function FilterBar(p: { brandId: string; only?: FilterName[] }) {
  const wants = (f: FilterName) => !p.only || p.only.includes(f);
  const [filters, setFilters] = useFilters();
  const { path, query } = useLocation();
  const choices = useChoices(p.brandId);
  const [custom, setCustom] = useState(false);
  const preset = presetOf(filters);
  const showDates = custom || preset === 'custom';
  return (
    <search class="filter-bar" aria-label="Filters">
      <div class="filter">
        <label for="filter-range">Dates</label>
        <select
          id="filter-range"
          value={showDates ? 'custom' : preset}
          onChange={(e) => {
            const v = e.currentTarget.value;
            if (v === 'custom') return setCustom(true);
            setCustom(false);
            setFilters(lastDays(Number(v)));
          }}
        >
          {PRESETS.map((d) => (
            <option key={d} value={String(d)}>
              Last {d} days
            </option>
          ))}
          <option value="custom">From – to</option>
        </select>
      </div>
      {showDates && (
        <>
          <div class="filter">
            <label for="filter-from">From</label>
            <input
              id="filter-from"
              type="date"
              value={filters.date_from}
              max={filters.date_to}
              onChange={(e) => e.currentTarget.value && setFilters({ date_from: e.currentTarget.value })}
            />
          </div>
          <div class="filter">
            <label for="filter-to">To</label>
            <input
              id="filter-to"
              type="date"
              value={filters.date_to}
              min={filters.date_from}
              onChange={(e) => e.currentTarget.value && setFilters({ date_to: e.currentTarget.value })}
            />
          </div>
        </>
      )}
      {wants('model') && (
        <Choice
          id="filter-model"
          label="Platform / model"
          value={filters.model}
          all="All platforms"
          options={choices?.models ?? []}
          onChange={(model) => setFilters({ model })}
        />
      )}
      {wants('region') && (
        <Choice
          id="filter-region"
          label="Region"
          value={filters.region}
          all="All regions"
          options={(choices?.regions ?? []).map((r) => ({ value: r, label: r }))}
          onChange={(region) => setFilters({ region })}
        />
      )}
      {wants('topic') && (
        <Choice
          id="filter-topic"
          label="Topic"
          value={filters.topic_id}
          all="All topics"
          options={(choices?.topics ?? []).map((t) => ({ value: t.id, label: t.name }))}
          onChange={(topic_id) => setFilters({ topic_id })}
        />
      )}
      {/* Only a brand that imported another tracker's answers has a choice to make; one the address
          names is shown too, so it can be set back. */}
      {wants('source') && Boolean(choices.sources?.length || filters.source) && (
        <Choice
          id="filter-source"
          label="Source"
          value={filters.source}
          all="Answerscope"
          options={(choices.sources ?? []).map((s) => ({
            value: s.source,
            label: `${s.source} (${s.answers.toLocaleString('en')} ${s.answers === 1 ? 'answer' : 'answers'})`,
          }))}
          onChange={(source) => setFilters({ source })}
        />
      )}
      <button
        type="button"
        class="link reset-filters"
        onClick={() => {
          setCustom(false);
          navigate(withoutFilters(path, query));
        }}
      >
        Reset filters
      </button>
    </search>
  );
}
