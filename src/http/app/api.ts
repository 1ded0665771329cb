// The app's JSON routes under /app/api/, for a signed-in person only. Figures and everything the
// API can do go through the very operations of the API (`/app/api/op/NAME` calls runOperation with
// the session's identity: the app computes nothing of its own); what only a person does in the app
// (their organizations, keys, the members and invitations, connected applications, their sessions
// and password) has a route here. Every change is a POST carrying the session's token in
// X-CSRF-Token, from the app's own origin. Every route passes the app's rate limits (limits.ts).
import type Router from '@koa/router';
import type Koa from 'koa';
import type { AppDeps } from '../../operations/context.ts';
import type { Operation } from '../../operations/registry.ts';
import { runOperation } from '../../operations/run.ts';
import { ApiError } from '../../errors.ts';
import { readJsonBody } from '../../runtime/json-body.ts';
import { pathRouter } from '../../runtime/router.ts';
import type { Mailer } from '../../runtime/mail.ts';
import { createKey, keysOfUser, revokeOwnKey } from '../../tenancy/keys.ts';
import { changeMember, leaveOrganization, listMembers, membershipsOf } from '../../tenancy/members.ts';
import {
  createInvitation,
  dropInvitation,
  INVITATION_DAYS,
  pendingInvitations,
  revokeInvitation,
} from '../../tenancy/invitations.ts';
import { connectedApps, disconnectApp, organizationName } from '../../tenancy/oauth-grants.ts';
import { changePassword } from '../../tenancy/accounts.ts';
import { endOtherSessions, ROLES, type Role, sessionsOf, switchOrganization } from '../../tenancy/sessions.ts';
import { baseUrl, MCP_ENDPOINT } from '../oauth/metadata.ts';
import { BRAND_NOT_FOUND, brandInOrganization } from '../../tenancy/brands.ts';
import { UUID_RE } from '../../uuid.ts';
import { checkChange } from './security.ts';
import { reportRoutes } from './reports.ts';
import { importRoutes } from './import.ts';
import { currentSession, type Session } from './session-cookie.ts';

export const SIGN_IN_FIRST = 'Sign in first';
const ADMINS_ONLY = 'Only admins manage members';
const NO_ORGANIZATION = 'You belong to no organization';
const NOT_MAILED = 'The invitation could not be mailed, so it was not made: try again later';
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

export function appApi(
  deps: AppDeps,
  operations: Operation[],
  mailer: Mailer | undefined,
  limit: Koa.Middleware,
): Router {
  const { config } = deps;
  const pg = deps.stores.pg;
  const byName = new Map(operations.map((op) => [op.name, op]));
  const router = pathRouter('ignored', '/app/api');

  // Every route: the app's limits, a live session; every POST: a change from the app's own pages.
  router.use(limit);
  router.use(async (ctx, next) => {
    ctx.set('Cache-Control', 'no-store');
    const session = await currentSession(ctx, pg, config);
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
  const member = (ctx: Koa.Context) => {
    const { organizationId } = sessionOf(ctx).identity;
    if (!organizationId) throw new ApiError(403, NO_ORGANIZATION);
    return organizationId;
  };

  router.get('/me', async (ctx) => {
    const { identity } = sessionOf(ctx);
    const organizations = await membershipsOf(pg, identity.userId);
    const current = organizations.find((o) => o.organization_id === identity.organizationId);
    ctx.body = {
      email: identity.email,
      role: identity.role,
      organization: current ? { id: current.organization_id, name: current.name } : null,
      organizations: organizations.map((o) => ({ id: o.organization_id, name: o.name, role: o.role })),
    };
  });
  // The Organization select: the session's current organization, one the person belongs to.
  router.post('/organization', async (ctx) => {
    const id = text(await body(ctx), 'organization_id');
    const { token, identity } = sessionOf(ctx);
    if (!UUID_RE.test(id) || !(await switchOrganization(pg, token, identity.userId, id.toLowerCase()))) {
      throw new ApiError(404, 'Organization not found', 'organization_id');
    }
    ctx.body = { organization_id: id.toLowerCase() };
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

  // The person's keys of the current organization; a new one acts on it only.
  router.get('/keys', async (ctx) => {
    ctx.body = await keysOfUser(pg, sessionOf(ctx).identity.userId, member(ctx));
  });
  router.post('/keys', async (ctx) => {
    const name = text(await body(ctx), 'name').trim();
    if (!name) throw new ApiError(400, 'Name is required', 'name');
    if (name.length > MAX_NAME) throw new ApiError(400, `Name must be at most ${MAX_NAME} characters`, 'name');
    const organizationId = member(ctx);
    const created = await createKey(pg, { email: sessionOf(ctx).identity.email, name, organizationId });
    ctx.body = { id: created.id, name, key: created.key };
  });
  router.post('/keys/:id/revoke', async (ctx) => {
    ctx.body = await revokeOwnKey(pg, sessionOf(ctx).identity.userId, ctx.params.id);
  });

  // Every member sees who belongs; only admins invite, change roles and remove.
  router.get('/members', async (ctx) => {
    ctx.body = await listMembers(pg, member(ctx));
  });
  router.get('/members/invitations', async (ctx) => {
    ctx.body = await pendingInvitations(pg, admin(ctx));
  });
  router.post('/members/invite', async (ctx) => {
    const organizationId = admin(ctx);
    const b = await body(ctx);
    const role = roleOf(b);
    const inviter = sessionOf(ctx).identity;
    const invitation = await createInvitation(pg, {
      organizationId,
      email: text(b, 'email'),
      role,
      invitedBy: inviter.userId,
    });
    const link = `${baseUrl(ctx, config)}/app/invitations/${invitation.token}`;
    const answer = { id: invitation.id, email: invitation.email, role, expires_at: invitation.expiresAt };
    // With SMTP the link goes to the invited address only: the admin never sees it, so the link
    // proves its holder reads that mailbox. Without, it is shown once, for the admin to send.
    if (!mailer) {
      ctx.body = { ...answer, link, mailed: false };
      return;
    }
    try {
      const organization = await organizationName(pg, organizationId);
      await mailer.send({
        to: invitation.email,
        subject: `You are invited to ${organization} on Answerscope`,
        text:
          `${inviter.email} invited you to join ${organization} on Answerscope as ${role}.\n\n` +
          `Join here (the link works once, for ${INVITATION_DAYS} days):\n${link}\n`,
      });
    } catch (err) {
      ctx.state.log?.warn({ err }, 'invitation mail failed');
      await dropInvitation(pg, invitation.id);
      throw new ApiError(503, NOT_MAILED, 'email');
    }
    ctx.body = { ...answer, link: null, mailed: true };
  });
  router.post('/members/invitations/:id/revoke', async (ctx) => {
    await revokeInvitation(pg, admin(ctx), ctx.params.id);
    ctx.body = { id: ctx.params.id, revoked: true };
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
    await changePassword(pg, session.identity, {
      current: text(b, 'current_password'),
      next: text(b, 'new_password'),
      keep: session.token,
      address: ctx.ip || 'unknown',
    });
    ctx.body = { changed: true };
  });
  router.get('/account/sessions', async (ctx) => {
    const session = sessionOf(ctx);
    ctx.body = await sessionsOf(pg, session.identity.userId, session.token);
  });
  router.post('/account/sessions/sign-out-others', async (ctx) => {
    const session = sessionOf(ctx);
    await endOtherSessions(pg, session.identity.userId, session.token);
    ctx.body = { signed_out: true };
  });
  // Leave <organization>: one's own membership ends; the last admin stays (409).
  router.post('/account/leave', async (ctx) => {
    const id = text(await body(ctx), 'organization_id');
    if (!UUID_RE.test(id)) throw new ApiError(404, 'Organization not found');
    await leaveOrganization(pg, sessionOf(ctx).identity.userId, id.toLowerCase());
    ctx.body = { organization_id: id.toLowerCase(), left: true };
  });

  reportRoutes(router, deps, sessionOf);
  importRoutes(router, deps, sessionOf);
  return router;
}
