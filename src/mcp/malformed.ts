// `tools/call` messages whose params are malformed, caught before the SDK sees them: the SDK parses
// the request with its own zod schema and answers -32603 Internal error with the raw zod issues,
// where JSON-RPC says -32602 Invalid params and a client needs to know which field is wrong
// (docs/api.md section 9). A tool's own argument validation is not this: it stays an `isError`
// result with the REST message.

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** What is wrong with a `tools/call` request's params, naming the field; undefined when nothing is. */
export function toolCallProblem(message: unknown): string | undefined {
  if (!isObject(message) || message.method !== 'tools/call') return undefined;
  const { params } = message;
  if (!isObject(params)) return 'params must be an object with the tool name and its arguments';
  if (typeof params.name !== 'string' || params.name === '')
    return 'params.name is required: the name of the tool to call';
  if (params.arguments !== undefined && !isObject(params.arguments)) return 'params.arguments must be an object';
  return undefined;
}

/** The JSON-RPC error answering a malformed call, or undefined for a message the SDK may handle. */
export function malformedToolCall(message: unknown): object | undefined {
  const problem = toolCallProblem(message);
  if (!problem) return undefined;
  const id = (message as { id?: unknown }).id;
  const validId = typeof id === 'string' || typeof id === 'number' ? id : null;
  return { jsonrpc: '2.0', id: validId, error: { code: -32602, message: `Invalid params: ${problem}` } };
}
