// `New brand` (/app/brands/new, every member): the brand's website first; the server reads its home
// page (brand-proposal) and proposes a name, domain and aliases, which the person edits before
// `Create brand` makes the brand (create-brand). Then its set-up page takes over.
import { useState } from 'preact/hooks';
import { change, read } from '../api.ts';
import { useApp } from '../context.ts';
import { Field } from '../components/field.tsx';
import { PageHead, Panel } from '../components/page.tsx';
import { errorAt, type FormError, formError } from '../form-error.ts';
import { navigate } from '../router.ts';
import { FormFoot, FormProblem } from './workspace/rows.tsx';
import { listOf, textOf } from './workspace/shared.tsx';
import './workspace/workspace.css';
import './first-run.css';

export function NewBrandPage() {
  const { reloadBrands } = useApp();
  const [website, setWebsite] = useState('');
  const [proposal, setProposal] = useState<{ name: string; domain: string; aliases: string }>();
  const [error, setError] = useState<FormError>();
  const [busy, setBusy] = useState(false);

  const propose = async (e: Event) => {
    e.preventDefault();
    setError(undefined);
    setBusy(true);
    try {
      const p = await read('brand-proposal', { website }, 'first');
      setProposal({ name: p.name, domain: p.domain, aliases: textOf(p.aliases) });
    } catch (err) {
      setProposal(undefined);
      setError(formError(err, ['website'], { 400: 'website' }));
    }
    setBusy(false);
  };

  const create = async (e: Event) => {
    e.preventDefault();
    if (!proposal) return;
    setError(undefined);
    setBusy(true);
    try {
      const made = await change('create-brand', {
        name: proposal.name,
        domains: listOf(proposal.domain),
        aliases: listOf(proposal.aliases),
      });
      reloadBrands?.();
      navigate(`/app/brands/${made.id}/setup`);
    } catch (err) {
      // A slug taken (409) comes from the name: it is the name's problem here.
      setError(formError(err, ['name', 'domains', 'aliases'], { 409: 'name' }));
      setBusy(false);
    }
  };
  const set = (key: 'name' | 'domain' | 'aliases') => (value: string) =>
    setProposal((p) => (p ? { ...p, [key]: value } : p));

  return (
    <>
      <PageHead
        title="New brand"
        intro="Start from the brand's website: its home page tells us the name, domain and other names it goes by."
      />
      <Panel title="Start from its website" id="website-heading">
        <form class="grid-form" onSubmit={propose} aria-labelledby="website-heading">
          <Field
            id="website"
            label="Website"
            value={website}
            onInput={setWebsite}
            error={errorAt(error, 'website')}
            hint="Its home page, e.g. trailpeak.example. Only public addresses are read."
            required
          />
          <FormFoot
            label="Continue"
            busy={busy && !proposal}
            note={busy && !proposal ? 'Reading the site…' : undefined}
          />
          {!proposal && <FormProblem error={error} />}
        </form>
      </Panel>
      {proposal && (
        <Panel title="Check what the site says" id="proposal-heading">
          <form class="grid-form" onSubmit={create} aria-labelledby="proposal-heading">
            <Field
              id="brand-name"
              label="Name"
              value={proposal.name}
              onInput={set('name')}
              error={errorAt(error, 'name')}
              hint="As answers name it."
              required
            />
            <Field
              id="brand-domain"
              label="Domain"
              value={proposal.domain}
              onInput={set('domain')}
              error={errorAt(error, 'domains')}
              hint="The bare domain; sub-domains count too."
            />
            <Field
              id="brand-aliases"
              label="Aliases"
              value={proposal.aliases}
              onInput={set('aliases')}
              error={errorAt(error, 'aliases')}
              hint="Other names answers use for the brand, separated by commas."
            />
            <FormFoot label="Create brand" busy={busy} note={undefined} />
            <FormProblem error={error} />
          </form>
        </Panel>
      )}
    </>
  );
}
