// The invitation link's page (docs/app.md, "Invitations"): server-rendered, working without
// script. Signed in as the invited email, `Join <organization>` adds the membership (a form whose
// token is bound to the session and the link). Anyone else gets one form asking for a `Password`:
// the new account's for an email without one, the account's own for an email with one. The page
// and its answers read the same either way, so the link tells its holder nothing about the account.
import type Router from '@koa/router';
import type Koa from 'koa';
import type { AppDeps } from '../../operations/context.ts';
import { ApiError } from '../../errors.ts';
import { acceptInvitation, INVITATION_GONE, type Invitation, invitationByToken } from '../../tenancy/invitations.ts';
import { createSession, switchOrganization } from '../../tenancy/sessions.ts';
import { secondsUntil, Throttled } from '../../tenancy/sign-in.ts';
import { authCard, escapeHtml, field } from './html.ts';
import { readFields } from './form.ts';
import { boundToken, fromAnotherSite, sameToken } from './security.ts';
import { currentSession, originOf, type Session, setSessionCookie } from './session-cookie.ts';

interface PageKit {
  deps: AppDeps;
  page: (ctx: Koa.Context, status: number, title: string, body: string) => void;
  refused: (ctx: Koa.Context) => void;
  forms: Koa.Middleware;
}

const action = (token: string) => `/app/invitations/${escapeHtml(token)}`;

function joinForm(invitation: Invitation, token: string, session: Session): string {
  return `<p>You are invited to <strong>${escapeHtml(invitation.organization)}</strong> as
<strong>${escapeHtml(invitation.role)}</strong>, signed in as ${escapeHtml(session.identity.email)}.</p>
<form method="post" action="${action(token)}">
<input type="hidden" name="action" value="join">
<input type="hidden" name="csrf" value="${escapeHtml(boundToken(session.token, token))}">
<button type="submit" class="primary wide">Join ${escapeHtml(invitation.organization)}</button>
</form>`;
}

function passwordForm(invitation: Invitation, token: string, error?: string, signedInAs?: string): string {
  const other = signedInAs
    ? `<p class="notice" role="status">You are signed in as ${escapeHtml(signedInAs)}; this invitation is for
${escapeHtml(invitation.email)}. Joining signs you in as ${escapeHtml(invitation.email)}.</p>`
    : '';
  return `${other}<p>You are invited to <strong>${escapeHtml(invitation.organization)}</strong> as
<strong>${escapeHtml(invitation.role)}</strong>. If you already have an Answerscope account with this email, enter its
password; if not, choose one for your new account.</p>
<form method="post" action="${action(token)}">
${field({ id: 'email', label: 'Email', type: 'email', autocomplete: 'username', value: invitation.email, readonly: true })}
${field({
  id: 'password',
  label: 'Password',
  type: 'password',
  autocomplete: 'current-password',
  error,
  hint: 'At least 10 characters.',
})}
<button type="submit" class="primary wide">Join ${escapeHtml(invitation.organization)}</button>
</form>`;
}

export function invitationRoutes(router: Router, kit: PageKit): void {
  const { config } = kit.deps;
  const pg = kit.deps.stores.pg;
  const gone = (ctx: Koa.Context) =>
    kit.page(
      ctx,
      404,
      'Invitation',
      authCard(
        'Invitation',
        `<p class="form-error" role="alert">${INVITATION_GONE}.</p><p>Ask an admin for a new one.</p>`,
      ),
    );
  const show = async (ctx: Koa.Context, status: number, error?: string) => {
    const invitation = await invitationByToken(pg, ctx.params.token);
    if (!invitation) return gone(ctx);
    const session = await currentSession(ctx, pg, config);
    const mine = session?.identity.email === invitation.email;
    kit.page(
      ctx,
      status,
      'Join',
      authCard(
        `Join ${invitation.organization}`,
        session && mine
          ? joinForm(invitation, ctx.params.token, session)
          : passwordForm(invitation, ctx.params.token, error, session?.identity.email),
      ),
    );
  };

  router.get('/app/invitations/:token', (ctx) => show(ctx, 200));
  router.post('/app/invitations/:token', kit.forms, async (ctx) => {
    if (fromAnotherSite(ctx, config)) return kit.refused(ctx);
    const form = await readFields(ctx);
    const token = ctx.params.token;
    try {
      if (form.get('action') === 'join') {
        const session = await currentSession(ctx, pg, config);
        if (!session || !sameToken(form.get('csrf') ?? '', boundToken(session.token, token))) return kit.refused(ctx);
        const joined = await acceptInvitation(pg, token, { signedInAs: session.identity.userId });
        await switchOrganization(pg, session.token, joined.userId, joined.organizationId);
      } else {
        const address = ctx.ip || 'unknown';
        const joined = await acceptInvitation(pg, token, { password: form.get('password') ?? '', address });
        const session = await createSession(pg, joined.userId, originOf(ctx), joined.organizationId);
        setSessionCookie(ctx, config, session);
      }
    } catch (err) {
      if (err instanceof ApiError && err.field === 'password') {
        if (err instanceof Throttled) ctx.set('Retry-After', String(secondsUntil(err.retryAt)));
        return show(ctx, err.status, err.message);
      }
      if (err instanceof ApiError && err.status === 404) return gone(ctx);
      if (err instanceof ApiError && err.status === 403) return kit.refused(ctx);
      throw err;
    }
    ctx.status = 303;
    ctx.redirect('/app');
  });
}
