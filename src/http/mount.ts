// Mounts the operation list on /api/mcp/* and the Metrics API subset on /api/v1/*. Parameters from
// the query string, the path and (for writes) the JSON body are merged and parsed by the
// operation's own schema, so a handler only ever sees valid input.
import Router from '@koa/router';
import type { Operation } from '../operations/registry.ts';
import { operationPath } from '../operations/registry.ts';
import { createCtx, type AppDeps } from '../operations/context.ts';
import { badRequest } from '../errors.ts';
import { readJsonBody } from './body.ts';

/** The first validation problem, as a message that names the parameter. */
export function validationMessage(issues: { path: PropertyKey[]; message: string }[]): string {
  const issue = issues[0];
  const name = issue.path.map(String).join('.');
  // Our schemas phrase their messages with the parameter's name; zod's defaults do not.
  return !name || issue.message.includes(name) ? issue.message : `${name}: ${issue.message}`;
}

export async function runOperation(deps: AppDeps, op: Operation, input: Record<string, unknown>, ctxState: any) {
  const parsed = op.params.safeParse(input);
  if (!parsed.success) throw badRequest(validationMessage(parsed.error.issues));
  const ctx = createCtx(deps, ctxState.identity, ctxState.log ?? deps.log);
  return op.run(ctx, parsed.data);
}

export function mountOperations(deps: AppDeps, operations: Operation[]): Router {
  const router = new Router();
  for (const op of operations) {
    const prefixes = op.metrics ? ['/api/mcp', '/api/v1'] : ['/api/mcp'];
    for (const prefix of prefixes) {
      router.register(`${prefix}${operationPath(op)}`, [op.method], async (ctx) => {
        ctx.state.operation = op.name;
        const body = op.method === 'GET' || op.method === 'DELETE' ? {} : await readJsonBody(ctx);
        if (body === null || typeof body !== 'object' || Array.isArray(body)) throw badRequest('Request body must be a JSON object');
        const input = { ...ctx.query, ...(body as object), ...ctx.params };
        ctx.body = await runOperation(deps, op, input, ctx.state);
      });
    }
  }
  return router;
}
