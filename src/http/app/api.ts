// The app's JSON routes under /app/api/, for a signed-in person only. Figures and everything the
// API can do go through the very operations of the API (`/app/api/op/NAME` calls runOperation with
// the session's identity: the app computes nothing of its own); what only a person does in the app
// (their keys, the members, connected applications, their password) has a route here. Every change
// is a POST carrying the session's token in X-CSRF-Token, from the app's own origin.
import Router from '@koa/router';
import type Koa from 'koa';
import type { AppDeps } from '../../operations/context.ts';
import type { Operation } from '../../operations/registry.ts';
import { runOperation } from '../../operations/run.ts';
import { ApiError } from '../../errors.ts';
import { readJsonBody } from '../../runtime/json-body.ts';
import type { Mailer } from '../../runtime/mail.ts';
import { createKey, keysOfUser, revokeOwnKey } from '../../tenancy/keys.ts';
import { changeMember, listMembers } from '../../tenancy/members.ts';
import { createInvitation, INVITATION_DAYS } from '../../tenancy/invitations.ts';
import { connectedApps, disconnectApp, organizationName } from '../../tenancy/oauth-grants.ts';
import { changePassword } from '../../tenancy/accounts.ts';
import { ROLES, type Role } from '../../tenancy/sessions.ts';
import { baseUrl, MCP_ENDPOINT } from '../oauth-metadata.ts';
import { BRAND_NOT_FOUND, brandInOrganization } from '../../tenancy/brands.ts';
import { UUID_RE } from '../../uuid.ts';
import { checkChange } from './security.ts';
import { reportRoutes } from './reports.ts';
import { currentSession, type Session } from './session-cookie.ts';

export const SIGN_IN_FIRST = 'Sign in first';
const ADMINS_ONLY = 'Only admins manage members';
const MAX_NAME = 100;

type Body = Record<string, unknown>;

async function body(ctx: Koa.Context): Promise<Body> {
  const value = await readJsonBody(ctx, 64 * 1024);
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw new ApiError(400, 'Request body must be a JSON object');
  }
  return value as Body;
}

const text = (b: Body, name: string) => (typeof b[name] === 'string' ? (b[name] as string) : '');

function roleOf(b: Body): Role {
  const role = b.role;
  if (!ROLES.includes(role as Role)) throw new ApiError(400, 'Role must be admin or member', 'role');
  return role as Role;
}

export function appApi(deps: AppDeps, operations: Operation[], mailer: Mailer | undefined): Router {
  const { config } = deps;
  const pg = deps.stores.pg;
  const byName = new Map(operations.map((op) => [op.name, op]));
  const router = new Router({ prefix: '/app/api', sensitive: true });

  // Every route: a live session first; every POST: a change from the app's own pages.
  router.use(async (ctx, next) => {
    ctx.set('Cache-Control', 'no-store');
    const session = await currentSession(ctx, pg);
    if (!session) throw new ApiError(401, SIGN_IN_FIRST);
    if (ctx.method !== 'GET' && ctx.method !== 'HEAD') checkChange(ctx, config, session.token, ctx.get('x-csrf-token'));
    ctx.state.session = session;
    ctx.state.identity = session.identity;
    await next();
  });
  const sessionOf = (ctx: Koa.Context): Session => ctx.state.session;
  const admin = (ctx: Koa.Context) => {
    const { identity } = sessionOf(ctx);
    if (identity.role !== 'admin' || !identity.organizationId) throw new ApiError(403, ADMINS_ONLY);
    return identity.organizationId;
  };

  router.get('/me', async (ctx) => {
    const { identity } = sessionOf(ctx);
    const organization = identity.organizationId ? await organizationName(pg, identity.organizationId) : null;
    ctx.body = {
      email: identity.email,
      role: identity.role,
      organization:
        identity.organizationId && organization ? { id: identity.organizationId, name: organization } : null,
    };
  });

  // The API's operations, as the session's person: reads as GET, changes as POST whatever the REST verb.
  const runNamed = async (ctx: Koa.Context, input: Body) => {
    const op = byName.get(ctx.params.name);
    if (!op || (op.method === 'GET') !== (ctx.method === 'GET')) throw new ApiError(404, 'Not found');
    ctx.state.operation = op.name;
    const gone = () => ctx.req.socket.destroyed;
    ctx.body = await runOperation(deps, op, input, sessionOf(ctx).identity, ctx.state.log, gone);
  };
  router.get('/op/:name', (ctx) => runNamed(ctx, { ...ctx.query }));
  router.post('/op/:name', async (ctx) => runNamed(ctx, await body(ctx)));

  router.get('/keys', async (ctx) => {
    ctx.body = await keysOfUser(pg, sessionOf(ctx).identity.userId);
  });
  router.post('/keys', async (ctx) => {
    const name = text(await body(ctx), 'name').trim();
    if (!name) throw new ApiError(400, 'Name is required', 'name');
    if (name.length > MAX_NAME) throw new ApiError(400, `Name must be at most ${MAX_NAME} characters`, 'name');
    const created = await createKey(pg, { email: sessionOf(ctx).identity.email, name });
    ctx.body = { id: created.id, name, key: created.key };
  });
  router.post('/keys/:id/revoke', async (ctx) => {
    ctx.body = await revokeOwnKey(pg, sessionOf(ctx).identity.userId, ctx.params.id);
  });

  router.get('/members', async (ctx) => {
    ctx.body = await listMembers(pg, admin(ctx));
  });
  router.post('/members/invite', async (ctx) => {
    const organizationId = admin(ctx);
    const b = await body(ctx);
    const role = roleOf(b);
    const invitation = await createInvitation(pg, {
      organizationId,
      email: text(b, 'email'),
      role,
      invitedBy: sessionOf(ctx).identity.userId,
    });
    const link = `${baseUrl(ctx, config)}/app/invitations/${invitation.token}`;
    let mailed = false;
    let mailError: string | null = null;
    if (mailer) {
      try {
        const organization = (await organizationName(pg, organizationId)) ?? 'an organization';
        await mailer.send({
          to: invitation.email,
          subject: `You are invited to ${organization} on Answerscope`,
          text: `${sessionOf(ctx).identity.email} invited you to join ${organization} on Answerscope as ${role}.\n\nSet your password and sign in here (the link works once, for ${INVITATION_DAYS} days):\n${link}\n`,
        });
        mailed = true;
      } catch (err) {
        ctx.state.log?.warn({ err }, 'invitation mail failed');
        mailError = 'The invitation could not be mailed; copy the link instead.';
      }
    }
    ctx.body = { email: invitation.email, role, link, expires_at: invitation.expiresAt, mailed, mail_error: mailError };
  });
  router.post('/members/:userId/role', async (ctx) => {
    ctx.body = await changeMember(pg, admin(ctx), ctx.params.userId, roleOf(await body(ctx)));
  });
  router.post('/members/:userId/remove', async (ctx) => {
    ctx.body = await changeMember(pg, admin(ctx), ctx.params.userId, null);
  });

  router.get('/connect', async (ctx) => {
    ctx.body = {
      mcp_url: baseUrl(ctx, config) + MCP_ENDPOINT,
      applications: await connectedApps(pg, sessionOf(ctx).identity.userId),
    };
  });
  router.post('/connect/:clientId/disconnect', async (ctx) => {
    const done = await disconnectApp(pg, sessionOf(ctx).identity.userId, ctx.params.clientId);
    if (!done) throw new ApiError(404, 'Application not connected');
    ctx.body = { client_id: ctx.params.clientId, disconnected: true };
  });

  // What a site needs to send data in: the tracking script's address and the brand's tracking id
  // (no API operation reads the id back), and where crawler logs go. Shown on the AI traffic and
  // AI crawler pages while they have nothing to show.
  router.get('/brands/:brandId/site-setup', async (ctx) => {
    const id = ctx.params.brandId;
    if (!UUID_RE.test(id)) throw new ApiError(404, BRAND_NOT_FOUND);
    const brand = await brandInOrganization(pg, sessionOf(ctx).identity.organizationId, id.toLowerCase());
    const base = baseUrl(ctx, config);
    ctx.body = {
      tracking_id: brand.tracking_id,
      script_url: `${base}/t.js`,
      crawler_logs_url: `${base}/api/mcp/crawler-logs?brand_id=${brand.id}`,
      domains: brand.domains,
    };
  });

  router.post('/account/password', async (ctx) => {
    const b = await body(ctx);
    const session = sessionOf(ctx);
    await changePassword(pg, session.identity.userId, {
      current: text(b, 'current_password'),
      next: text(b, 'new_password'),
      keep: session.token,
    });
    ctx.body = { changed: true };
  });

  reportRoutes(router, deps, sessionOf);
  return router;
}
