// An operation's `result` schema is what the OpenAPI document and the MCP output schema promise.
// Nothing re-parses a result on its way out (that would cost every response a parse), so with
// VALIDATE_RESULTS=1, which every test server sets, runOperation checks each result here: a shape
// that drifted from its documentation then fails the test that produced it, naming the operation
// and the field.
import { ApiError } from '../errors.ts';
import type { Operation } from './registry.ts';

/** `['prompts', 0, 'topic_name']` -> `prompts[0].topic_name`; the whole result is `(result)`. */
function fieldPath(path: readonly PropertyKey[]): string {
  const text = path
    .map((p) => (typeof p === 'number' ? `[${p}]` : `.${String(p)}`))
    .join('')
    .replace(/^\./, '');
  return text || '(result)';
}

/**
 * Throws a 500 naming the operation and the first bad field when `body` is not what `op.result`
 * documents. What is checked is the body as a client receives it, after JSON (a Date becomes its
 * ISO string, an undefined field disappears): the wire side of the schema, as `run` returns it.
 */
export function checkResult(op: Operation, body: unknown): void {
  const wire: unknown = body === undefined ? undefined : JSON.parse(JSON.stringify(body));
  const checked = op.result.safeParse(wire);
  if (checked.success) return;
  const issue = checked.error.issues[0];
  throw new ApiError(
    500,
    `Operation ${op.name} returned a result its schema does not allow: ` + `${fieldPath(issue.path)}: ${issue.message}`,
  );
}
