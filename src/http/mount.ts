// Mounts the operation list on /api/mcp/* and the Metrics API subset on /api/v1/*. Parameters from
// the query string, the path and (for writes) the JSON body are merged and parsed by the
// operation's own schema, so a handler only ever sees valid input.
import Router from '@koa/router';
import type Koa from 'koa';
import type { Logger } from 'pino';
import type { Identity, Operation } from '../operations/registry.ts';
import { operationPath } from '../operations/registry.ts';
import { createCtx, type AppDeps } from '../operations/context.ts';
import { ApiError, badRequest } from '../errors.ts';
import { MALFORMED } from './auth.ts';
import { readJsonBody } from './body.ts';

/** The first validation problem, as a message that names the parameter. */
export function validationMessage(issues: { path: PropertyKey[]; message: string }[]): string {
  const issue = issues[0];
  const name = issue.path.map(String).join('.');
  // Our schemas phrase their messages with the parameter's name; zod's defaults do not.
  return !name || issue.message.includes(name) ? issue.message : `${name}: ${issue.message}`;
}

/** Rules between parameters that every operation shares (CONTRACT.md section 9). */
function crossCheck(params: Record<string, unknown>): void {
  const { date_from: from, date_to: to } = params;
  if (from instanceof Date && to instanceof Date && from > to) throw badRequest('date_from must not be after date_to');
}

/**
 * Runs an operation for an authenticated caller: the one entry of every surface. The identity is a
 * required argument, so no surface can call an operation without one.
 */
export async function runOperation(deps: AppDeps, op: Operation, input: Record<string, unknown>, identity: Identity, log?: Logger) {
  const parsed = op.params.safeParse(input);
  if (!parsed.success) throw badRequest(validationMessage(parsed.error.issues));
  if (parsed.data && typeof parsed.data === 'object') crossCheck(parsed.data as Record<string, unknown>);
  return op.run(createCtx(deps, identity, log ?? deps.log), parsed.data);
}

/** The identity the guard resolved; a route reached without one is refused, whatever the wiring. */
function identityOf(ctx: Koa.Context): Identity {
  const identity = ctx.state.identity as Identity | undefined;
  if (!identity) throw new ApiError(401, MALFORMED);
  return identity;
}

export function mountOperations(deps: AppDeps, operations: Operation[]): Router {
  // Case-sensitive: paths are matched as written (CONTRACT.md section 9), as the guard in front expects.
  const router = new Router({ sensitive: true });
  for (const op of operations) {
    const prefixes = op.metrics ? ['/api/mcp', '/api/v1'] : ['/api/mcp'];
    for (const prefix of prefixes) {
      router.register(`${prefix}${operationPath(op)}`, [op.method], async (ctx) => {
        ctx.state.operation = op.name;
        const identity = identityOf(ctx);
        const body = op.method === 'GET' || op.method === 'DELETE' ? {} : await readJsonBody(ctx);
        if (body === null || typeof body !== 'object' || Array.isArray(body)) throw badRequest('Request body must be a JSON object');
        const input = { ...ctx.query, ...(body as object), ...ctx.params };
        ctx.body = await runOperation(deps, op, input, identity, ctx.state.log);
      });
    }
  }
  return router;
}
