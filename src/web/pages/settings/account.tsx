// Settings > Account: who is signed in, and a change of password (the current one first; every
// other session of the person ends).
import { useState } from 'preact/hooks';
import { post } from '../../api.ts';
import { errorAt, type FormError, formError } from '../../form-error.ts';
import { useApp } from '../../context.ts';
import { Field } from '../../components/field.tsx';
import { PageHead, Panel, Problem } from '../../components/page.tsx';

export function AccountPage() {
  const { me } = useApp();
  const [current, setCurrent] = useState('');
  const [next, setNext] = useState('');
  const [error, setError] = useState<FormError>();
  const [done, setDone] = useState(false);
  const submit = async (e: Event) => {
    e.preventDefault();
    setError(undefined);
    setDone(false);
    try {
      await post('/account/password', { current_password: current, new_password: next });
      setCurrent('');
      setNext('');
      setDone(true);
    } catch (err) {
      setError(formError(err, ['current_password', 'new_password']));
    }
  };
  const at = (f: string) => errorAt(error, f);
  return (
    <>
      <PageHead
        title="Account"
        intro={`Signed in as ${me.email}${me.role ? `, ${me.role} of ${me.organization?.name}` : ''}.`}
      />
      <Panel title="Change password">
        <form class="stack" onSubmit={submit} aria-label="Change password">
          <Field
            id="current_password"
            label="Current password"
            type="password"
            autoComplete="current-password"
            value={current}
            onInput={setCurrent}
            error={at('current_password')}
            required
          />
          <Field
            id="new_password"
            label="New password"
            type="password"
            autoComplete="new-password"
            value={next}
            onInput={setNext}
            error={at('new_password')}
            hint="At least 10 characters. Your other sessions are signed out."
            required
          />
          {error && !error.field && <Problem message={error.message} />}
          {done && (
            <p class="notice" role="status">
              Password changed.
            </p>
          )}
          <div>
            <button type="submit" class="primary">
              Change password
            </button>
          </div>
        </form>
      </Panel>
    </>
  );
}
