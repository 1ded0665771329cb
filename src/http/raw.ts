// Routes the declared raw HTTP endpoints (src/operations/raw-endpoints.ts) to their handlers by
// exact path. Start-up fails when a declared endpoint has no handler or a handler no declaration,
// so the OpenAPI document cannot list an endpoint the server lacks, nor the server serve one it omits.
import type Koa from 'koa';
import { rawEndpoints, type RawEndpoint } from '../operations/raw-endpoints.ts';

export function rawMount(
  handlers: Readonly<Record<string, Koa.Middleware>>,
  endpoints: readonly RawEndpoint[] = rawEndpoints,
): (app: Koa) => void {
  const declared = new Set(endpoints.map((e) => e.name));
  const undeclared = Object.keys(handlers).filter((name) => !declared.has(name as RawEndpoint['name']));
  if (undeclared.length) throw new Error(`Raw endpoint handlers without a declaration: ${undeclared.join(', ')}`);
  const byPath = new Map<string, { name: RawEndpoint['name']; handler: Koa.Middleware }>();
  for (const e of endpoints) {
    const handler = handlers[e.name];
    if (!handler) throw new Error(`Raw endpoint ${e.name} (${e.path}) is declared but has no handler`);
    byPath.set(e.path, { name: e.name, handler });
  }
  return (app) => {
    app.use((ctx, next) => {
      const route = byPath.get(ctx.path);
      if (!route) return next();
      // Its name labels the request in the logs and metrics, as an operation's does.
      ctx.state.operation = route.name;
      return route.handler(ctx, next);
    });
  };
}
