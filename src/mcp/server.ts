// One MCP server per HTTP request (a stateless transport cannot be reused), answering tools/list
// from the definitions built at load and tools/call through `runOperation`, the very function the
// REST surface calls, so a tool and its REST twin cannot disagree.
//
// The SDK's low-level `Server` is used rather than `McpServer`: McpServer would re-parse the
// arguments with the zod schema and hand the tool the parsed values (Dates, clamped limits) with its
// own validation messages, and convert the schemas on every tools/list. Here the raw arguments go
// to `runOperation`, which parses them exactly as for REST and fails with the same messages.
import { createRequire } from 'node:module';
import type { Logger } from 'pino';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv';
import type { AuthInfo } from '@modelcontextprotocol/sdk/server/auth/types.js';
import {
  CallToolRequestSchema,
  ErrorCode,
  ListToolsRequestSchema,
  McpError,
  type CallToolResult,
} from '@modelcontextprotocol/sdk/types.js';
import type { AppDeps } from '../operations/context.ts';
import type { Identity } from '../tenancy/keys.ts';
import { runOperation } from '../operations/run.ts';
import { storeOutage } from '../stores/outage.ts';
import { ApiError, ClientGone } from '../errors.ts';
import { operationInput, structuredResult } from './schemas.ts';
import { tools, type McpTool } from './tools.ts';

const { version } = createRequire(import.meta.url)('../../package.json') as { version: string };

const INSTRUCTIONS =
  'Answerscope tracks how brands appear in the answers of AI platforms (ChatGPT, Perplexity, Gemini, ' +
  `Google AI Overviews and AI Mode, Claude, Copilot, Grok).
Start with list_brands: every other tool takes a brand_id from it. Dates are YYYY-MM-DD (UTC).
Tools that change data (their readOnlyHint is false) run only when the user explicitly asks for that action; ` +
  'some use a monthly quota.';

const catalog = (list: readonly McpTool[]) => ({
  definitions: list.map((t) => t.definition),
  byName: new Map(list.map((t) => [t.name, t])),
});
const registryCatalog = catalog(tools);

/** How the key's identity travels to the tools: in the transport's authInfo, never in arguments. */
export function authInfoFor(token: string, identity: Identity): AuthInfo {
  // A token a person granted while signed in has no key: the person stands as the client.
  return { token, clientId: identity.keyId ?? identity.userId, scopes: [], extra: { identity } };
}

const failure = (message: string): CallToolResult => ({ content: [{ type: 'text', text: message }], isError: true });

export interface RequestScope {
  requestId: string;
  log: Logger;
  /** Set to the tool name a call runs, for the request log line. */
  onTool?(name: string): void;
}

// The SDK's server makes a JSON Schema validator (Ajv with its formats) unless given one, and it
// checks only what a client sends back to an elicitation, which this server never asks for: one
// validator serves every request's server, instead of one built per request (0.4 ms of CPU each).
const validator = new AjvJsonSchemaValidator();

/** `list` replaces the registry's tools (tests only). */
export function createMcpServer(deps: AppDeps, scope: RequestScope, list?: readonly McpTool[]): Server {
  const { definitions, byName } = list ? catalog(list) : registryCatalog;
  const server = new Server(
    { name: 'answerscope', title: 'Answerscope', version },
    {
      capabilities: { tools: { listChanged: false } },
      instructions: INSTRUCTIONS,
      jsonSchemaValidator: validator,
    },
  );

  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: definitions }));

  server.setRequestHandler(CallToolRequestSchema, async (request, extra): Promise<CallToolResult> => {
    const tool = byName.get(request.params.name);
    if (!tool) throw new McpError(ErrorCode.InvalidParams, `Unknown tool: ${request.params.name}`);
    scope.onTool?.(tool.name);
    const identity = extra.authInfo?.extra?.identity as Identity | undefined;
    // The HTTP guard authenticates before the transport runs; no identity means a wiring bug.
    if (!identity) throw new McpError(ErrorCode.InternalError, 'Not authenticated');
    try {
      const input = operationInput(tool.op, request.params.arguments ?? {});
      const body = await runOperation(deps, tool.op, input, identity, scope.log, () => extra.signal.aborted);
      const structured = structuredResult(tool.op, body);
      return { content: [{ type: 'text', text: JSON.stringify(structured) }], structuredContent: structured };
    } catch (err) {
      // The REST twin's message as it stands; anything unexpected is logged and stays generic.
      if (err instanceof ApiError) return failure(err.message);
      // The client cancelled: nobody reads the answer, and the service did not fail (as REST's handler).
      if (err instanceof ClientGone) return failure(err.message);
      scope.log.error({ err, tool: tool.name, requestId: scope.requestId }, 'MCP tool failed');
      return failure(storeOutage(err) ?? `Internal server error (request ${scope.requestId})`);
    }
  });

  return server;
}
