// runOperation: the one entry of every surface into an operation. REST (src/http/mount.ts) and
// MCP tools/call (src/mcp/server.ts) both call it, so parameters are parsed, checked and refused
// with the same messages whichever way a caller comes in.
import type { Logger } from 'pino';
import { badRequest, validationMessage } from '../errors.ts';
import type { Identity } from '../tenancy/keys.ts';
import type { BrandRecord } from '../tenancy/brands.ts';
import type { Operation } from './registry.ts';
import { createCtx, type AppDeps } from './context.ts';
import { checkResult } from './result-check.ts';

/** Rules between parameters that every operation shares (docs/api.md section 9). */
export function crossCheck(params: Record<string, unknown>): void {
  const { date_from: from, date_to: to } = params;
  if (from instanceof Date && to instanceof Date && from > to) throw badRequest('date_from must not be after date_to');
}

/**
 * Runs an operation for an authenticated caller. The identity is a required argument, so no
 * surface can call an operation without one.
 */
export async function runOperation(
  deps: AppDeps,
  op: Operation,
  input: Record<string, unknown>,
  identity: Identity,
  log?: Logger,
  /** Whether the caller has left: its reads still waiting for their turn are then dropped. */
  gone?: () => boolean,
  /** A brand of the caller's organization already read with the key (src/http/auth.ts). */
  known?: BrandRecord | null,
) {
  const parsed = op.params.safeParse(input);
  if (!parsed.success) throw badRequest(validationMessage(parsed.error.issues));
  if (parsed.data && typeof parsed.data === 'object') crossCheck(parsed.data as Record<string, unknown>);
  const result = await op.run(createCtx(deps, identity, log ?? deps.log, gone, known), parsed.data);
  if (deps.config.validateResults) checkResult(op, result);
  return result;
}
