// JSON Schemas of an MCP tool, derived from its operation's zod schemas.
//
// Both schemas describe what travels on the wire, which for the result is the *input* side of the
// operation's `result` schema (`run` returns `z.input<R>`, the REST body, which is never re-parsed).
// Draft-07, as the SDK's own McpServer emits, because that is what MCP clients validate with.
import { z } from 'zod';
import type { Operation } from '../operations/registry.ts';
import { operationPath } from '../operations/registry.ts';

export type JsonSchema = {
  type: 'object';
  properties?: Record<string, object>;
  required?: string[];
  [k: string]: unknown;
};

function toJson(schema: z.ZodType): JsonSchema {
  // Preprocessing and transforms do not change what a client may send, so they are left out.
  return z.toJSONSchema(schema, { io: 'input', target: 'draft-7', unrepresentable: 'any' }) as JsonSchema;
}

/** The `:name` path parameter of a REST operation (the contract's operations have at most one). */
export function pathParam(op: Operation): string | undefined {
  return /:(\w+)/.exec(operationPath(op))?.[1];
}

/** The MCP argument carrying the path parameter: `op.idArg` (e.g. `opportunity_id`) or its own name. */
export function idArgument(op: Operation): string | undefined {
  const param = pathParam(op);
  return param ? (op.idArg ?? param) : undefined;
}

/** The operation's params as a tool input schema, the path parameter renamed to its argument name. */
export function inputSchema(op: Operation): JsonSchema {
  const schema = toJson(op.params);
  if (schema.type !== 'object') {
    throw new Error(`Operation ${op.name}: params must be a z.object to become an MCP tool`);
  }
  const param = pathParam(op);
  const arg = idArgument(op);
  if (param && arg && arg !== param && schema.properties?.[param]) {
    const { [param]: idSchema, ...rest } = schema.properties;
    schema.properties = { [arg]: idSchema, ...rest };
    schema.required = (schema.required ?? []).map((r) => (r === param ? arg : r));
  }
  return schema;
}

/** A bare array result is wrapped as `{items: [...]}`: MCP structured content must be an object. */
export const wrapsArray = (op: Operation) => op.result instanceof z.ZodArray;

export function outputSchema(op: Operation): JsonSchema {
  const schema = toJson(wrapsArray(op) ? z.object({ items: op.result }) : op.result);
  if (schema.type !== 'object') {
    throw new Error(`Operation ${op.name}: result must be an object or an array to become an MCP tool`);
  }
  return schema;
}

/** Tool arguments -> the operation's input, as the REST surface merges query, body and path. */
export function operationInput(op: Operation, args: Record<string, unknown>): Record<string, unknown> {
  const param = pathParam(op);
  const arg = idArgument(op);
  if (!param || !arg) return { ...args };
  const { [arg]: id, ...rest } = args;
  return { ...rest, [param]: id };
}

/** The REST body as structured content: a JSON round trip (dates become strings, as over HTTP). */
export function structuredResult(op: Operation, body: unknown): Record<string, unknown> {
  const json = JSON.parse(JSON.stringify(body ?? null));
  return wrapsArray(op) || Array.isArray(json) ? { items: json } : json;
}
