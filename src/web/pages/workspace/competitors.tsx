// The brand's competitors (competitors, add-competitor, update-competitor, remove-competitor).
// Each change queues a re-analysis: every stored answer is matched against the new list.
import { useState } from 'preact/hooks';
import { change, read } from '../../api.ts';
import type { Result } from '../../operation-types.ts';
import { useLoad } from '../../load.ts';
import { Field } from '../../components/field.tsx';
import { Confirm } from '../../components/confirm.tsx';
import { DataTable } from '../../components/data-table.tsx';
import { TrashIcon } from '../../components/icons.tsx';
import { Panel, Pending } from '../../components/page.tsx';
import { actionsColumn, FormButtons, FormProblem, RowButton, SubForm } from './rows.tsx';
import { errorAt, type FormError, formError } from '../../form-error.ts';
import { listOf, textOf } from './shared.tsx';

export type Competitor = Result<'competitors'>[number];

const FIELDS = ['name', 'domains', 'aliases'];

/** Add (no `competitor`) or change one; the 409 of a name already taken is the name's. */
function CompetitorForm(p: {
  brandId: string;
  competitor?: Competitor;
  onDone: (reanalysisQueued: boolean) => void;
  onCancel?: () => void;
}) {
  const c = p.competitor;
  const prefix = c ? `competitor-${c.id}` : 'competitor-new';
  const [name, setName] = useState(c?.name ?? '');
  const [domains, setDomains] = useState(textOf(c?.domains ?? []));
  const [aliases, setAliases] = useState(textOf(c?.aliases ?? []));
  const [error, setError] = useState<FormError>();
  const [busy, setBusy] = useState(false);
  const submit = async (e: Event) => {
    e.preventDefault();
    setError(undefined);
    setBusy(true);
    try {
      const fields = { name, domains: listOf(domains), aliases: listOf(aliases) };
      const done = c
        ? await change('update-competitor', { id: c.id, ...fields })
        : await change('add-competitor', { brand_id: p.brandId, ...fields });
      if (!c) {
        setName('');
        setDomains('');
        setAliases('');
      }
      p.onDone(done.reanalysis_queued);
    } catch (err) {
      setError(formError(err, FIELDS, { 409: 'name' }));
    }
    setBusy(false);
  };
  return (
    <form class="inline-form" onSubmit={submit} aria-label={c ? `Change ${c.name}` : 'Add a competitor'}>
      <Field
        id={`${prefix}-name`}
        label="Name"
        value={name}
        onInput={setName}
        error={errorAt(error, 'name')}
        required
      />
      <Field
        id={`${prefix}-domains`}
        label="Domains"
        value={domains}
        onInput={setDomains}
        error={errorAt(error, 'domains')}
        hint="Separated by commas"
      />
      <Field
        id={`${prefix}-aliases`}
        label="Aliases"
        value={aliases}
        onInput={setAliases}
        error={errorAt(error, 'aliases')}
        hint="Separated by commas"
      />
      <FormButtons label={c ? 'Save competitor' : 'Add competitor'} busy={busy} onCancel={p.onCancel} />
      <FormProblem error={error} />
    </form>
  );
}

export function Competitors(p: { brandId: string; onChanged: (reanalysisQueued: boolean) => void }) {
  const list = useLoad(() => read('competitors', { brand_id: p.brandId }), [p.brandId]);
  const [editing, setEditing] = useState<string>();
  const [removing, setRemoving] = useState<Competitor>();
  const changed = (queued: boolean) => {
    setEditing(undefined);
    list.reload();
    p.onChanged(queued);
  };
  return (
    <Panel title="Competitors" id="competitors-heading">
      <Pending load={list} />
      {list.data && (
        <DataTable
          caption="Competitors"
          rows={list.data}
          rowKey={(c) => c.id}
          empty="No competitors yet: add the ones answers should be compared with."
          columns={[
            { key: 'name', label: 'Name' },
            { key: 'domains', label: 'Domains', render: (c) => textOf(c.domains) || '—' },
            { key: 'aliases', label: 'Aliases', render: (c) => textOf(c.aliases) || '—' },
            actionsColumn<Competitor>((c) => (
              <div class="actions row-actions">
                <RowButton label="Change" name={c.name} onClick={() => setEditing(c.id)} />
                <button
                  type="button"
                  class="icon"
                  aria-label={`Remove ${c.name}`}
                  title="Remove"
                  onClick={() => setRemoving(c)}
                >
                  <TrashIcon />
                </button>
              </div>
            )),
          ]}
        />
      )}
      {list.data
        ?.filter((c) => c.id === editing)
        .map((c) => (
          <SubForm key={c.id} title={`Change ${c.name}`}>
            <CompetitorForm
              brandId={p.brandId}
              competitor={c}
              onDone={changed}
              onCancel={() => setEditing(undefined)}
            />
          </SubForm>
        ))}
      <SubForm title="Add a competitor">
        <CompetitorForm brandId={p.brandId} onDone={changed} />
      </SubForm>
      {removing && (
        <Confirm
          title={`Remove ${removing.name}?`}
          confirmLabel="Remove competitor"
          onClose={() => setRemoving(undefined)}
          onConfirm={async () => {
            const done = await change('remove-competitor', { id: removing.id });
            changed(done.reanalysis_queued);
          }}
        >
          <p>
            Its figures leave every report, over all history, once the stored answers are analysed again. Add it back
            later and they return.
          </p>
        </Confirm>
      )}
    </Panel>
  );
}
