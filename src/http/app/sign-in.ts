// Signing in (docs/api.md section 17): the form at /app/sign-in, and the same check for the OAuth
// consent page's own sign-in form. One message whichever of email or password was wrong; the
// throttle's refusal says when to try again and answers 429.
import type Koa from 'koa';
import type { AppDeps } from '../../operations/context.ts';
import { checkSignIn, secondsUntil, throttledMessage } from '../../tenancy/sign-in.ts';
import { createSession } from '../../tenancy/sessions.ts';
import { ApiError } from '../../errors.ts';
import { originOf, setSessionCookie } from './session-cookie.ts';
import { authCard, escapeHtml, field } from './html.ts';

export const INCORRECT = 'Email or password is incorrect';

export type SignInOutcome =
  | { ok: true; token: string }
  | { ok: false; status: 400 | 401 | 429; message: string; field: 'email' | 'password' };

/** Checks the credentials; on success opens a session (a new token) and sets its cookie. */
export async function signIn(ctx: Koa.Context, deps: AppDeps, email: string, password: string): Promise<SignInOutcome> {
  const pg = deps.stores.pg;
  let result: Awaited<ReturnType<typeof checkSignIn>>;
  try {
    result = await checkSignIn(pg, { email, password, address: ctx.ip || 'unknown' });
  } catch (err) {
    // An email no address can be (an invisible character in it): named beside the field.
    if (err instanceof ApiError && err.field === 'email')
      return { ok: false, status: 400, message: err.message, field: 'email' };
    throw err;
  }
  if (result.ok) {
    const token = await createSession(pg, result.userId, originOf(ctx));
    setSessionCookie(ctx, deps.config, token);
    return { ok: true, token };
  }
  if (result.reason === 'throttled') {
    ctx.set('Retry-After', String(secondsUntil(result.retryAt)));
    return { ok: false, status: 429, message: throttledMessage(result.retryAt, new Date()), field: 'password' };
  }
  return { ok: false, status: 401, message: INCORRECT, field: 'password' };
}

/** The sign-in fields and button, for /app/sign-in and the consent page. */
export function signInFields(opts: { email?: string; error?: string; errorField?: 'email' | 'password' }): string {
  const at = (f: 'email' | 'password') => ((opts.errorField ?? 'password') === f ? opts.error : undefined);
  return `${field({ id: 'email', label: 'Email', type: 'email', autocomplete: 'username', value: opts.email, error: at('email') })}
${field({ id: 'password', label: 'Password', type: 'password', autocomplete: 'current-password', error: at('password') })}
<button type="submit" class="primary wide">Sign in</button>`;
}

/** The /app/sign-in page; `next` is where to go after (an /app path, checked by the caller). */
export function signInPage(opts: {
  next?: string;
  email?: string;
  error?: string;
  errorField?: 'email' | 'password';
  notice?: string;
}): string {
  return authCard(
    'Sign in',
    `${opts.notice ? `<p class="notice" role="status">${escapeHtml(opts.notice)}</p>` : ''}
<form method="post" action="/app/sign-in">
${opts.next ? `<input type="hidden" name="next" value="${escapeHtml(opts.next)}">` : ''}
${signInFields(opts)}
</form>`,
  );
}
