// /api/mcp in the Koa app: Streamable HTTP, stateless, JSON responses. Only POST carries messages
// (no server-initiated stream, no session to delete), so GET and DELETE answer 405. A POST passes
// the origin check, then the same rate limit and bearer check as REST (a bad key gets the REST 401
// body), then a fresh server and transport handle it.
import type { IncomingMessage } from 'node:http';
import type Koa from 'koa';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { AuthInfo } from '@modelcontextprotocol/sdk/server/auth/types.js';
import type { AppDeps } from '../operations/context.ts';
import { ApiError } from '../errors.ts';
import { readJsonBody } from '../http/body.ts';
import { originAllowed } from './origin.ts';
import { authInfoFor, createMcpServer } from './server.ts';

export const MCP_PATH = '/api/mcp';

const jsonRpcError = (code: number, message: string) => ({ jsonrpc: '2.0', id: null, error: { code, message } });

async function serve(deps: AppDeps, ctx: Koa.Context): Promise<void> {
  let body: unknown;
  try {
    body = await readJsonBody(ctx);
  } catch (err) {
    if (!(err instanceof ApiError) || err.status !== 400) throw err;
    ctx.status = 400;
    ctx.body = jsonRpcError(-32700, 'Parse error: the body is not valid JSON');
    return;
  }

  const log = ctx.state.log ?? deps.log;
  const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
  const server = createMcpServer(deps, {
    requestId: ctx.state.requestId,
    log,
    onTool: (name) => { ctx.state.operation = `mcp:${name}`; },
  });
  // The transport writes the response itself; Koa must not write a second one.
  ctx.respond = false;
  ctx.res.on('close', () => {
    void transport.close();
    void server.close();
  });
  const req = ctx.req as IncomingMessage & { auth?: AuthInfo };
  const token = /^Bearer[ ]+(\S+)/i.exec(ctx.get('authorization'))?.[1] ?? '';
  req.auth = authInfoFor(token, ctx.state.identity);
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

/** The mount for `createApp`'s `extra` list. */
export function mcpMount(deps: AppDeps): (app: Koa, guard: Koa.Middleware) => void {
  return (app, guard) => {
    app.use(async (ctx, next) => {
      if (ctx.path !== MCP_PATH) return next();
      ctx.state.operation = 'mcp';
      if (!originAllowed(ctx.get('origin') || undefined, deps.config.mcp.allowedOrigins)) {
        ctx.status = 403;
        ctx.body = { error: 'Origin not allowed' };
        return;
      }
      if (ctx.method !== 'POST') {
        ctx.status = 405;
        ctx.set('Allow', 'POST');
        ctx.body = { error: `Method ${ctx.method} not allowed on ${MCP_PATH}: this stateless MCP server takes POST only` };
        return;
      }
      await guard(ctx, () => serve(deps, ctx));
    });
  };
}
