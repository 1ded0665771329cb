// Mounts the operation list on /api/mcp/* and the Metrics API subset on /api/v1/*. Parameters from
// the query string, the path and (for writes) the JSON body are merged and handed to runOperation
// (src/operations/run.ts), which parses them by the operation's own schema: a handler only ever
// sees valid input.
import type Router from '@koa/router';
import type { Operation } from '../operations/registry.ts';
import { operationPath } from '../operations/registry.ts';
import type { AppDeps } from '../operations/context.ts';
import { runOperation } from '../operations/run.ts';
import { badRequest } from '../errors.ts';
import { requireIdentity } from '../tenancy/keys.ts';
import { readJsonBody } from '../runtime/json-body.ts';
import { pathRouter } from '../runtime/router.ts';

export function mountOperations(deps: AppDeps, operations: Operation[]): Router {
  // Case-sensitive: paths are matched as written (docs/api.md section 9), as the guard in front expects.
  const router = pathRouter('ignored');
  for (const op of operations) {
    const prefixes = op.metrics ? ['/api/mcp', '/api/v1'] : ['/api/mcp'];
    for (const prefix of prefixes) {
      router.register(`${prefix}${operationPath(op)}`, [op.method], async (ctx) => {
        ctx.state.operation = op.name;
        const identity = requireIdentity(ctx.state);
        const body = op.method === 'GET' || op.method === 'DELETE' ? {} : await readJsonBody(ctx);
        const isObject = body !== null && typeof body === 'object' && !Array.isArray(body);
        if (!isObject) throw badRequest('Request body must be a JSON object');
        const input = { ...ctx.query, ...(body as object), ...ctx.params };
        // A client that has closed its connection needs no more reads.
        const gone = () => ctx.req.socket.destroyed;
        ctx.body = await runOperation(deps, op, input, identity, ctx.state.log, gone, ctx.state.brand);
      });
    }
  }
  return router;
}
