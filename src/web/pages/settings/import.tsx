// Settings > Import: another tracker's answer export (CSV with a header line, or JSON Lines),
// uploaded with the tool's name and which of its columns holds each field, imported as
// `answerscope import-tracker` imports it. Then what was imported, the lines refused (each with its
// number and why), and the agreement report: per reading the tool's figure and Answerscope's on the
// same answers, agreement, Cohen's kappa, the mean position difference, and the answers where the
// two differ with both readings. A refused import (a mapped column the file lacks) stores nothing
// and says why beside the field.
import { useState } from 'preact/hooks';
import { post } from '../../api.ts';
import type { Result } from '../../operation-types.ts';
import { useApp } from '../../context.ts';
import { errorAt, type FormError, formError } from '../../form-error.ts';
import { Field, Notes, Select } from '../../components/field.tsx';
import { DataTable } from '../../components/data-table.tsx';
import { forgetImportSources } from '../../components/filter-bar.tsx';
import { Empty, PageHead, Panel, Problem } from '../../components/page.tsx';

const FIELDS = [
  { field: 'text', label: 'Answer text', hint: 'Required' },
  { field: 'platform', label: 'Platform', hint: 'Required: chatgpt, perplexity, ...' },
  { field: 'date', label: 'Date', hint: 'Required: YYYY-MM-DD or an ISO timestamp' },
  { field: 'prompt', label: 'Prompt', hint: "Required: one of the brand's prompts, as written" },
  { field: 'mentioned', label: 'Mentioned', hint: "The tool's reading: true/false, yes/no or 1/0" },
  { field: 'position', label: 'Position', hint: "The tool's rank of the brand; empty or 0: not named" },
  { field: 'sentiment', label: 'Sentiment', hint: 'positive, neutral or negative' },
  { field: 'cited', label: 'Cited', hint: 'true/false, yes/no or 1/0' },
] as const;

type Pct = number | null;
/** The agreement report: the import-agreement operation's, which the import route answers too. */
type Agreement = Result<'import-agreement'>;
type YesNo = Agreement['readings']['mentioned'];
type Readings = Agreement['disagreements'][number]['tool'];
/** What the import route answers (an app route, not an operation). */
interface Imported {
  import: { source: string; lines: number; imported: number; unreadable: { line: number; reason: string }[] };
  agreement: Agreement;
}

interface ReadingRow {
  reading: string;
  answers: number;
  tool: string;
  answerscope: string;
  agreement: string;
  kappa: string;
  difference: string;
}

const none = '–';
const pct = (v: Pct) => (v === null ? none : `${v}%`);
const num = (v: Pct) => (v === null ? none : String(v));

/** One row per reading; what a reading has no such figure for is a dash. */
function readingRows(a: Agreement): ReadingRow[] {
  const { mentioned, position, sentiment, cited } = a.readings;
  const yesNo = (reading: string, r: YesNo) => ({
    reading,
    answers: r.answers,
    tool: pct(r.tool),
    answerscope: pct(r.answerscope),
    agreement: pct(r.agreement_pct),
    kappa: num(r.kappa),
    difference: none,
  });
  return [
    yesNo('Mentioned (yes)', mentioned),
    {
      reading: 'Position (mean)',
      answers: position.answers,
      tool: num(position.tool),
      answerscope: num(position.answerscope),
      agreement: none,
      kappa: none,
      difference: num(position.mean_absolute_difference),
    },
    {
      reading: 'Sentiment (positive)',
      answers: sentiment.answers,
      tool: pct(sentiment.tool),
      answerscope: pct(sentiment.answerscope),
      agreement: pct(sentiment.agreement_pct),
      kappa: none,
      difference: none,
    },
    yesNo('Cited (yes)', cited),
  ];
}

const readingText = (r: Readings) =>
  [
    `mentioned ${r.mentioned === null ? none : r.mentioned ? 'yes' : 'no'}`,
    `position ${r.position ?? none}`,
    `sentiment ${r.sentiment ?? none}`,
    `cited ${r.cited === null ? none : r.cited ? 'yes' : 'no'}`,
  ].join(', ');

function Report(p: { result: Imported }) {
  const { import: done, agreement } = p.result;
  return (
    <>
      <Panel title="Imported">
        <p role="status" class="notice">
          {done.imported} of {done.lines} lines imported from {done.source}
          {done.unreadable.length ? `; ${done.unreadable.length} refused` : ''}.
        </p>
        {done.unreadable.length > 0 && (
          <DataTable
            caption="Lines refused"
            showCaption
            rows={done.unreadable}
            rowKey={(u) => String(u.line)}
            columns={[
              { key: 'line', label: 'Line', align: 'right' },
              { key: 'reason', label: 'Why' },
            ]}
          />
        )}
      </Panel>
      <Panel title={`Agreement with ${agreement.source}`}>
        {!agreement.answers ? (
          <Empty>No answers of {agreement.source} are stored for this brand, so there is nothing to compare.</Empty>
        ) : (
          <>
            <DataTable<ReadingRow>
              caption={`Readings of ${agreement.answers} answers by ${agreement.source} and by Answerscope`}
              showCaption
              rows={readingRows(agreement)}
              rowKey={(r) => r.reading}
              columns={[
                { key: 'reading', label: 'Reading' },
                { key: 'answers', label: 'Answers both read', align: 'right' },
                { key: 'tool', label: `${agreement.source}'s figure`, align: 'right' },
                { key: 'answerscope', label: "Answerscope's figure", align: 'right' },
                { key: 'agreement', label: 'Agreement', align: 'right' },
                { key: 'kappa', label: "Cohen's kappa", align: 'right' },
                { key: 'difference', label: 'Mean absolute difference', align: 'right' },
              ]}
            />
            <DataTable<Agreement['disagreements'][number]>
              caption={`Answers read differently (${agreement.disagreements_total}${
                agreement.disagreements_total > agreement.disagreements.length
                  ? `, the first ${agreement.disagreements.length}`
                  : ''
              })`}
              showCaption
              rows={agreement.disagreements}
              rowKey={(d) => d.answer_id}
              empty={<Empty>The two read every answer alike.</Empty>}
              columns={[
                { key: 'line', label: 'Line', align: 'right' },
                { key: 'collected_at', label: 'Date', render: (d) => d.collected_at.slice(0, 10) },
                { key: 'platform', label: 'Platform' },
                { key: 'differ', label: 'Differs on', render: (d) => d.differ.join(', ') },
                { key: 'tool', label: `${agreement.source} read`, render: (d) => readingText(d.tool) },
                { key: 'answerscope', label: 'Answerscope read', render: (d) => readingText(d.answerscope) },
              ]}
            />
          </>
        )}
      </Panel>
    </>
  );
}

export function ImportPage() {
  const { brands, brand } = useApp();
  const [brandId, setBrandId] = useState(brand?.id ?? brands[0]?.id ?? '');
  const [format, setFormat] = useState('');
  const [file, setFile] = useState<File>();
  const [map, setMap] = useState<Record<string, string>>({});
  const [error, setError] = useState<FormError>();
  const [busy, setBusy] = useState(false);
  const [result, setResult] = useState<Imported>();
  const names = ['brand_id', 'format', 'file', 'map', ...FIELDS.map((f) => `map.${f.field}`)];
  const submit = async (e: Event) => {
    e.preventDefault();
    setError(undefined);
    setResult(undefined);
    if (!file) {
      setError({ field: 'file', message: 'Choose the file to import' });
      return;
    }
    setBusy(true);
    try {
      const content = await file.text();
      setResult(
        await post<Imported>(`/brands/${brandId}/import`, {
          format: format.trim(),
          file_name: file.name,
          content,
          map,
        }),
      );
      // The filter bar's Source choice lists the brand's trackers: this one may be new.
      forgetImportSources(brandId);
    } catch (err) {
      setError(formError(err, names));
    }
    setBusy(false);
  };
  if (!brands.length) {
    return (
      <>
        <PageHead title="Import" />
        <Empty>There is no brand to import answers for yet: add a brand first.</Empty>
      </>
    );
  }
  return (
    <>
      <PageHead
        title="Import"
        intro={
          "Answers another tracker collected, with that tool's readings, imported beside Answerscope's: they " +
          'count in figures only when a figure asks for their source, and the agreement report compares the ' +
          "tool's readings with Answerscope's on the same answers."
        }
      />
      <Panel title="Import a file">
        <form onSubmit={submit} aria-label="Import another tracker's answers">
          <Select
            id="import-brand"
            label="Brand"
            value={brandId}
            options={brands.map((b) => ({ value: b.id, label: b.name }))}
            onChange={setBrandId}
            error={errorAt(error, 'brand_id')}
          />
          <Field
            id="import-format"
            label="Tool's name"
            value={format}
            onInput={setFormat}
            hint="A lower-case name for the tool, e.g. othertool: figures then take source=othertool"
            error={errorAt(error, 'format')}
          />
          <div class="field">
            <label for="import-file">File (CSV with a header line, or JSON Lines)</label>
            <input
              id="import-file"
              name="import-file"
              type="file"
              accept=".csv,.jsonl,.ndjson,text/csv,application/x-ndjson"
              onChange={(e) => setFile(e.currentTarget.files?.[0])}
              aria-invalid={errorAt(error, 'file') ? 'true' : undefined}
              aria-describedby={errorAt(error, 'file') ? 'import-file-error' : undefined}
            />
            <Notes id="import-file" error={errorAt(error, 'file')} />
          </div>
          <fieldset>
            <legend>Columns: which column of the file holds each field (empty: the column named as the field)</legend>
            {FIELDS.map((f) => (
              <Field
                key={f.field}
                id={`import-map-${f.field}`}
                label={f.label}
                value={map[f.field] ?? ''}
                onInput={(v) => setMap({ ...map, [f.field]: v })}
                hint={f.hint}
                error={errorAt(error, `map.${f.field}`)}
              />
            ))}
            <Notes id="import-map" error={errorAt(error, 'map')} />
          </fieldset>
          <button type="submit" class="primary" disabled={busy}>
            {busy ? 'Importing…' : 'Import'}
          </button>
          {error && !names.includes(error.field ?? '') && <Problem message={error.message} />}
        </form>
      </Panel>
      {result && <Report result={result} />}
    </>
  );
}
