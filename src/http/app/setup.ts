// The first-run page, /app/setup?code=... (docs/app.md "First run"): a server-rendered form that
// creates the organization and its first admin, then signs them in. It is answered only while
// nobody has a password and only with the current code; otherwise 404, like any unknown page.
// No session exists yet, so the form is guarded as the sign-in form is: refused when the browser
// says it was posted from another site, rate limited per address, and the code itself (which a
// forging site cannot know) travels in the form.
import type Router from '@koa/router';
import type Koa from 'koa';
import { ApiError } from '../../errors.ts';
import type { AppDeps } from '../../operations/context.ts';
import { createSession } from '../../tenancy/sessions.ts';
import { completeSetup, SETUP_CODE_GONE, SETUP_PATH, setupCodeValid } from '../../tenancy/setup.ts';
import { readForm } from '../oauth/form.ts';
import { authCard, escapeHtml, field } from './html.ts';
import { fromAnotherSite } from './security.ts';
import { originOf, setSessionCookie } from './session-cookie.ts';

type Page = (ctx: Koa.Context, status: number, title: string, body: string) => void;

interface Values {
  code: string;
  organization?: string;
  email?: string;
  errors?: Partial<Record<'organization' | 'email' | 'password', string>>;
  error?: string;
}

function setupForm(v: Values): string {
  return authCard(
    'Set up Answerscope',
    `<p>Create your organization and its first admin: you. You can invite others once you are in.</p>
${v.error ? `<p class="form-error" role="alert">${escapeHtml(v.error)}</p>` : ''}
<form method="post" action="${SETUP_PATH}">
<input type="hidden" name="code" value="${escapeHtml(v.code)}">
${field({ id: 'organization', label: 'Organization', type: 'text', autocomplete: 'organization', value: v.organization, error: v.errors?.organization })}
${field({ id: 'email', label: 'Email', type: 'email', autocomplete: 'username', value: v.email, error: v.errors?.email })}
${field({ id: 'password', label: 'Password', type: 'password', autocomplete: 'new-password', error: v.errors?.password, hint: 'At least 10 characters.' })}
<button type="submit" class="primary wide">Create organization</button>
</form>`,
  );
}

/** Adds GET and POST /app/setup to the app's router. */
export function setupRoutes(
  router: Router,
  deps: AppDeps,
  opts: { page: Page; refused: (ctx: Koa.Context) => void; formLimit: Koa.Middleware },
): void {
  const { config } = deps;
  const pg = deps.stores.pg;
  // The same answer whether the setup is over or the code is wrong: nothing to see here.
  const notFound = (ctx: Koa.Context) =>
    opts.page(ctx, 404, 'Not found', authCard('Not found', `<p>${escapeHtml(SETUP_CODE_GONE)}.</p>`));

  router.get(SETUP_PATH, async (ctx) => {
    const code = typeof ctx.query.code === 'string' ? ctx.query.code : '';
    if (!(await setupCodeValid(pg, code))) return notFound(ctx);
    opts.page(ctx, 200, 'Set up', setupForm({ code }));
  });

  router.post(SETUP_PATH, opts.formLimit, async (ctx) => {
    if (fromAnotherSite(ctx, config)) return opts.refused(ctx);
    let form: Map<string, string>;
    try {
      form = await readForm(ctx);
    } catch (err) {
      throw new ApiError(400, (err as Error).message);
    }
    const values = {
      code: form.get('code') ?? '',
      organization: form.get('organization') ?? '',
      email: form.get('email') ?? '',
    };
    let made: { userId: string; organizationId: string };
    try {
      made = await completeSetup(pg, { ...values, password: form.get('password') ?? '' });
    } catch (err) {
      if (!(err instanceof ApiError)) throw err;
      if (err.status === 404) return notFound(ctx);
      const field = err.field as keyof NonNullable<Values['errors']> | undefined;
      const shown: Values = field ? { ...values, errors: { [field]: err.message } } : { ...values, error: err.message };
      return opts.page(ctx, err.status, 'Set up', setupForm(shown));
    }
    setSessionCookie(ctx, config, await createSession(pg, made.userId, originOf(ctx), made.organizationId));
    ctx.status = 303;
    ctx.redirect('/app');
  });
}
