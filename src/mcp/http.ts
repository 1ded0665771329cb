// /api/mcp in the Koa app: Streamable HTTP, stateless, JSON responses. Only POST carries messages
// (no server-initiated stream, no session to delete), so GET and DELETE answer 405. A POST has
// passed the same rate limit and bearer check as REST (src/http/pipeline.ts; a bad key gets the REST 401
// body), where this endpoint alone also takes OAuth access tokens (docs/oauth.md); then the origin
// check, then a fresh server and transport handle it.
import type { IncomingMessage } from 'node:http';
import type Koa from 'koa';
import type { AuthInfo } from '@modelcontextprotocol/sdk/server/auth/types.js';
import type { AppDeps } from '../operations/context.ts';
import { ApiError } from '../errors.ts';
import { requireIdentity } from '../tenancy/keys.ts';
import { markAssistantConnected } from '../tenancy/checklist.ts';
import { readJsonBody } from '../runtime/json-body.ts';
import { methodNotAllowed, pathRouter } from '../runtime/router.ts';
import { originAllowed } from './origin.ts';
import { malformedToolCall } from './malformed.ts';

export const MCP_PATH = '/api/mcp';

const jsonRpcError = (code: number, message: string) => ({ jsonrpc: '2.0', id: null, error: { code, message } });

async function serve(deps: AppDeps, ctx: Koa.Context): Promise<void> {
  const identity = requireIdentity(ctx.state);
  let body: unknown;
  try {
    body = await readJsonBody(ctx);
  } catch (err) {
    if (!(err instanceof ApiError) || err.status !== 400) throw err;
    ctx.status = 400;
    ctx.body = jsonRpcError(-32700, 'Parse error: the body is not valid JSON');
    return;
  }

  const malformed = Array.isArray(body) ? undefined : malformedToolCall(body);
  if (malformed) {
    ctx.body = malformed;
    return;
  }
  // The set-up checklist's "connect an assistant": an assistant has spoken to the organization. A
  // failure to note it is logged and the request goes on: the checklist is no reason to refuse it.
  const log = ctx.state.log ?? deps.log;
  if (identity.organizationId) {
    await markAssistantConnected(deps.stores.pg, identity.organizationId).catch((err) =>
      log.warn({ err, requestId: ctx.state.requestId }, 'could not note the assistant connected'),
    );
  }

  // The SDK's server and transport load with the first MCP request, not at start: a fifth of a CPU
  // second that a process serving no MCP client never pays.
  const [{ StreamableHTTPServerTransport }, { authInfoFor, createMcpServer }] = await Promise.all([
    import('@modelcontextprotocol/sdk/server/streamableHttp.js'),
    import('./server.ts'),
  ]);
  const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
  const server = createMcpServer(deps, {
    requestId: ctx.state.requestId,
    log,
    onTool: (name) => {
      ctx.state.operation = `mcp:${name}`;
    },
  });
  // The transport writes the response itself; Koa must not write a second one.
  ctx.respond = false;
  ctx.res.on('close', () => {
    void transport.close();
    void server.close();
  });
  const req = ctx.req as IncomingMessage & { auth?: AuthInfo };
  const token = /^Bearer[ ]+(\S+)/i.exec(ctx.get('authorization'))?.[1] ?? '';
  req.auth = authInfoFor(token, identity);
  try {
    await server.connect(transport);
    await transport.handleRequest(req, ctx.res, body);
  } catch (err) {
    log.error({ err, requestId: ctx.state.requestId }, 'MCP transport failed');
    if (!ctx.res.headersSent) {
      ctx.res.writeHead(500, { 'content-type': 'application/json' });
      ctx.res.end(JSON.stringify(jsonRpcError(-32603, `Internal server error (request ${ctx.state.requestId})`)));
    }
  }
}

/**
 * `createPipeline`'s `beforeKey`: a browser page of a foreign origin (DNS rebinding included) is refused
 * before the key is looked at, so it cannot use the endpoint to test keys.
 */
export function mcpOriginGuard(deps: AppDeps): Koa.Middleware {
  return async (ctx, next) => {
    if (ctx.path === MCP_PATH && !originAllowed(ctx.get('origin') || undefined, deps.config.mcp.allowedOrigins)) {
      ctx.state.operation = 'mcp';
      ctx.status = 403;
      ctx.body = { error: 'Origin not allowed' };
      return;
    }
    await next();
  };
}

/** The mount for `createPipeline`'s `extra` list: its route takes every method, answering all but POST with a 405. */
export function mcpMount(deps: AppDeps): (app: Koa) => void {
  const router = pathRouter('refused');
  router.all(MCP_PATH, async (ctx) => {
    ctx.state.operation = 'mcp';
    if (ctx.method !== 'POST') {
      methodNotAllowed(ctx, ['POST'], ': this stateless MCP server takes POST only');
      return;
    }
    await serve(deps, ctx);
  });
  return (app) => {
    app.use(router.routes());
  };
}
