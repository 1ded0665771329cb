// Turns anything thrown below into {"error": message}. ApiErrors carry their own status and
// message; anything else is a 500 whose cause is logged with the request id and never sent.
import type Koa from 'koa';
import { ApiError, ClientGone } from '../errors.ts';
import { storeOutage } from '../stores/outage.ts';

export function errorHandler(): Koa.Middleware {
  return async (ctx, next) => {
    try {
      await next();
      if (ctx.status === 404 && !ctx.body) {
        ctx.status = 404;
        ctx.body = { error: 'Not found' };
      } else if (ctx.status === 405 && !ctx.body) {
        ctx.status = 405;
        ctx.body = { error: `Method ${ctx.method} not allowed on ${ctx.path}` };
      }
    } catch (err) {
      if (err instanceof ApiError) {
        ctx.status = err.status;
        ctx.body = err.field ? { error: err.message, field: err.field } : { error: err.message };
        return;
      }
      if (err instanceof ClientGone) {
        // Nobody is left to answer; not a failure of the service.
        ctx.state.log?.info({ requestId: ctx.state.requestId }, 'client gone before the answer');
        ctx.status = 499;
        return;
      }
      const outage = storeOutage(err);
      ctx.state.log?.error({ err, requestId: ctx.state.requestId }, 'request failed');
      ctx.status = 500;
      ctx.body = { error: outage ?? `Internal server error (request ${ctx.state.requestId})` };
    }
  };
}
