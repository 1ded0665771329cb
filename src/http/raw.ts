// Routes the declared raw HTTP endpoints (src/operations/raw-endpoints.ts) to their handlers on a
// router, by exact path. Start-up fails when a declared endpoint has no handler or a handler no
// declaration, so the OpenAPI document cannot list an endpoint the server lacks, nor the server
// serve one it omits. Each handler answers every method on its path (a 405 naming its own), so
// its route takes them all.
import type Koa from 'koa';
import { rawEndpoints, type RawEndpoint } from '../operations/raw-endpoints.ts';
import { pathRouter } from '../runtime/router.ts';

export function rawMount(
  handlers: Readonly<Record<string, Koa.Middleware>>,
  endpoints: readonly RawEndpoint[] = rawEndpoints,
): (app: Koa) => void {
  const declared = new Set(endpoints.map((e) => e.name));
  const undeclared = Object.keys(handlers).filter((name) => !declared.has(name as RawEndpoint['name']));
  if (undeclared.length) throw new Error(`Raw endpoint handlers without a declaration: ${undeclared.join(', ')}`);
  const router = pathRouter('refused');
  for (const e of endpoints) {
    const handler = handlers[e.name];
    if (!handler) throw new Error(`Raw endpoint ${e.name} (${e.path}) is declared but has no handler`);
    router.all(e.path, (ctx, next) => {
      // Its name labels the request in the logs and metrics, as an operation's does.
      ctx.state.operation = e.name;
      return handler(ctx, next);
    });
  }
  return (app) => {
    app.use(router.routes());
  };
}
