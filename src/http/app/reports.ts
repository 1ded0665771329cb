// Reports by email in the app (docs/app.md, Settings > Reports): the person's subscriptions
// (JSON under /app/api/reports, for the signed-in person), and the address every report carries in
// List-Unsubscribe, reached without a session: GET shows a button, POST ends the subscription
// (RFC 8058 one-click; mail providers post `List-Unsubscribe=One-Click` from their own servers, so
// this POST carries no session token: the unguessable token in the address is the authority).
import type Router from '@koa/router';
import type Koa from 'koa';
import type { AppDeps } from '../../operations/context.ts';
import { ApiError } from '../../errors.ts';
import { readJsonBody } from '../../runtime/json-body.ts';
import { brandInOrganization } from '../../tenancy/brands.ts';
import {
  FREQUENCIES,
  type Frequency,
  subscribe,
  subscriptionsOf,
  unsubscribe,
  unsubscribeByToken,
} from '../../reports/subscriptions.ts';
import { UUID_RE } from '../../uuid.ts';
import { baseUrl } from '../oauth/metadata.ts';
import { authCard, escapeHtml } from './html.ts';
import type { Session } from './session-cookie.ts';

export const NEEDS_SMTP = 'Email reports need SMTP_URL, which is not set on this server';
const TOKEN_RE = /^[A-Za-z0-9_-]{43}$/;

function frequencyOf(value: unknown): Frequency {
  if (!FREQUENCIES.includes(value as Frequency))
    throw new ApiError(400, 'Frequency must be daily or weekly', 'frequency');
  return value as Frequency;
}

function hourOf(value: unknown): number {
  const hour = value === undefined ? 7 : typeof value === 'string' && /^\d{1,2}$/.test(value) ? Number(value) : value;
  if (typeof hour !== 'number' || !Number.isInteger(hour) || hour < 0 || hour > 23) {
    throw new ApiError(400, 'Hour must be a whole number from 0 to 23 (UTC)', 'hour');
  }
  return hour;
}

/** The JSON routes of Settings > Reports, on the app's API router (after its session check). */
export function reportRoutes(router: Router, deps: AppDeps, sessionOf: (ctx: Koa.Context) => Session): void {
  const { pg } = deps.stores;
  const mailConfigured = () => Boolean(deps.config.mail.smtpUrl);
  const organizationOf = (ctx: Koa.Context) => {
    const { organizationId } = sessionOf(ctx).identity;
    if (!organizationId) throw new ApiError(403, 'You belong to no organization');
    return organizationId;
  };

  router.get('/reports', async (ctx) => {
    const { userId } = sessionOf(ctx).identity;
    const subscriptions = await subscriptionsOf(pg, userId, organizationOf(ctx));
    ctx.body = {
      mail_configured: mailConfigured(),
      subscriptions: subscriptions.map((s) => ({
        id: s.id,
        brand_id: s.brand_id,
        frequency: s.frequency,
        hour: s.hour,
        last_period_end: s.last_period_end,
        last_sent_at: s.last_sent_at,
      })),
    };
  });

  router.post('/reports', async (ctx) => {
    const b = (await readJsonBody(ctx, 16 * 1024)) as Record<string, unknown> | null;
    if (!b || typeof b !== 'object' || Array.isArray(b)) throw new ApiError(400, 'Request body must be a JSON object');
    const organizationId = organizationOf(ctx);
    const brandId = typeof b.brand_id === 'string' ? b.brand_id.toLowerCase() : '';
    if (!UUID_RE.test(brandId)) throw new ApiError(400, 'Brand is required', 'brand_id');
    const frequency = frequencyOf(b.frequency);
    const hour = hourOf(b.hour);
    // Checked after the fields, so a form says what is wrong with it first.
    if (!mailConfigured()) throw new ApiError(409, NEEDS_SMTP);
    const brand = await brandInOrganization(pg, organizationId, brandId).catch(() => {
      throw new ApiError(400, 'No such brand in your organization', 'brand_id');
    });
    const { userId } = sessionOf(ctx).identity;
    const s = await subscribe(pg, {
      userId,
      organizationId,
      brandId: brand.id,
      frequency,
      hour,
      appUrl: baseUrl(ctx, deps.config),
    });
    ctx.body = { id: s.id, brand_id: s.brand_id, frequency: s.frequency, hour: s.hour, last_period_end: null };
  });

  router.post('/reports/:id/unsubscribe', async (ctx) => {
    const id = ctx.params.id;
    if (!UUID_RE.test(id) || !(await unsubscribe(pg, sessionOf(ctx).identity.userId, id.toLowerCase()))) {
      throw new ApiError(404, 'Subscription not found');
    }
    ctx.body = { id, unsubscribed: true };
  });
}

/** The List-Unsubscribe address: `/app/reports/unsubscribe/{token}`, no session needed. */
export function unsubscribeRoutes(
  router: Router,
  deps: AppDeps,
  page: (ctx: Koa.Context, status: number, title: string, body: string) => void,
): void {
  const gone = (ctx: Koa.Context) =>
    page(
      ctx,
      404,
      'Not subscribed',
      authCard('Not subscribed', '<p>This address ends no subscription: it has ended already.</p>'),
    );
  router.get('/app/reports/unsubscribe/:token', (ctx) => {
    if (!TOKEN_RE.test(ctx.params.token)) return gone(ctx);
    // A GET changes nothing: mail scanners open links; the person confirms with the button.
    page(
      ctx,
      200,
      'Stop email reports',
      authCard(
        'Stop email reports',
        `<form method="post" action="/app/reports/unsubscribe/${escapeHtml(ctx.params.token)}">
<p>You will get no more emails of this report.</p>
<button type="submit" class="primary">Unsubscribe</button>
</form>`,
      ),
    );
  });
  router.post('/app/reports/unsubscribe/:token', async (ctx) => {
    if (!TOKEN_RE.test(ctx.params.token) || !(await unsubscribeByToken(deps.stores.pg, ctx.params.token))) {
      return gone(ctx);
    }
    page(ctx, 200, 'Unsubscribed', authCard('Unsubscribed', '<p>You will get no more emails of this report.</p>'));
  });
}
