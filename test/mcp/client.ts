// MCP test helpers: the SDK's own client over Streamable HTTP, a raw JSON-RPC POST for what the
// client hides (status codes, headers), and the REST request that is a tool's twin.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { McpTool } from '../../src/mcp/tools.ts';
import { operationPath } from '../../src/operations/registry.ts';
import { idArgument, pathParam } from '../../src/mcp/schemas.ts';
import { call, type Reply } from '../helpers/server.ts';

export async function connect(
  server: { url: string },
  key: string,
  headers: Record<string, string> = {},
): Promise<Client> {
  const client = new Client({ name: 'answerscope-test', version: '1.0.0' });
  const transport = new StreamableHTTPClientTransport(new URL(`${server.url}/api/mcp`), {
    requestInit: { headers: { authorization: `Bearer ${key}`, ...headers } },
  });
  await client.connect(transport);
  return client;
}

export const initialize = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1.0.0' } },
};

/** One JSON-RPC POST to /api/mcp, as a client that sends exactly these headers. */
export function post(server: { url: string }, message: unknown, headers: Record<string, string> = {}): Promise<Reply> {
  return call(server, 'POST', '/api/mcp', {
    body: message,
    headers: { accept: 'application/json, text/event-stream', ...headers },
  });
}

/** The REST request for a tool's arguments: the id argument into the path, the rest as query or body. */
export function restTwin(
  server: { url: string },
  tool: McpTool,
  args: Record<string, unknown>,
  key: string,
): Promise<Reply> {
  const { op } = tool;
  const param = pathParam(op);
  const arg = idArgument(op);
  const rest = { ...args };
  let path = `/api/mcp${operationPath(op)}`;
  if (param && arg) {
    path = path.replace(`:${param}`, encodeURIComponent(String(rest[arg] ?? '')));
    delete rest[arg];
  }
  if (op.method === 'GET' || op.method === 'DELETE') {
    const query = new URLSearchParams();
    for (const [k, v] of Object.entries(rest))
      if (v !== undefined) query.set(k, Array.isArray(v) ? v.join(',') : String(v));
    const qs = query.toString();
    return call(server, op.method, qs ? `${path}?${qs}` : path, { key });
  }
  return call(server, op.method, path, { key, body: rest });
}
