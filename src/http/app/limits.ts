// The app's own rate limits (docs/app.md, "Limits"), apart from the API's: its JSON routes per
// client address and per session (one browser tab cannot starve its office, nor a stolen cookie
// hammer the server from many addresses), and the forms that check a password or make an account
// (sign-in, first run, invitations, the consent page) per client address, which also bounds the
// scrypt work one address can ask for. Counters live where the API's do (RATE_LIMIT_STORE).
import { createHash } from 'node:crypto';
import type Koa from 'koa';
import type { Config } from '../../config.ts';
import { createLimiter, rateLimit } from '../../runtime/rate-limit.ts';
import type { Postgres } from '../../stores/postgres.ts';
import { sessionToken } from './session-cookie.ts';

export interface AppLimits {
  /** /app/api/*: per address, then per session. */
  routes: Koa.Middleware;
  /** A form that checks a password or creates an account: per address, then per session if any. */
  forms: Koa.Middleware;
}

export async function appLimits(config: Config, pg: Postgres): Promise<AppLimits> {
  const { max, sessionMax, windowS, formMax, formWindowS } = config.appRateLimit;
  const store = config.rateLimit.store;
  const perAddress = rateLimit(await createLimiter({ max, windowS, store, keyPrefix: 'app' }, pg));
  // Counted by a digest of the cookie's token: the counters never hold a credential.
  const perSession = rateLimit(
    await createLimiter({ max: sessionMax, windowS, store, keyPrefix: 'app-session' }, pg),
    (ctx) => {
      const token = sessionToken(ctx, config);
      return token && createHash('sha256').update(token).digest('base64url').slice(0, 32);
    },
  );
  const forms = rateLimit(
    await createLimiter({ max: formMax, windowS: formWindowS, store, keyPrefix: 'app-forms' }, pg),
  );
  return {
    routes: (ctx, next) => perAddress(ctx, () => perSession(ctx, next)),
    forms: (ctx, next) => forms(ctx, () => perSession(ctx, next)),
  };
}
