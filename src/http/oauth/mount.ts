// The OAuth 2.1 authorization server of the MCP endpoint (docs/api.md section 16, docs/oauth.md):
// the metadata documents, client registration, the consent page, the token and revocation
// endpoints. Every path here passes a per-address rate limit of its own (the API's figures, its
// own counters) before anything else; its router matches the paths exactly as written.
import type Router from '@koa/router';
import type Koa from 'koa';
import { TooManyRequestsError } from '@modelcontextprotocol/sdk/server/auth/errors.js';
import type { AppDeps } from '../../operations/context.ts';
import { createLimiter, rateLimit } from '../../runtime/rate-limit.ts';
import {
  AUTHORIZATION_SERVER_PATH,
  AUTHORIZE_PATH,
  authorizationServerMetadata,
  baseUrl,
  MCP_ENDPOINT,
  PROTECTED_RESOURCE_PATH,
  protectedResourceMetadata,
  REGISTER_PATH,
  REVOKE_PATH,
  TOKEN_PATH,
} from './metadata.ts';
import { allowCors } from './form.ts';
import { register } from './register.ts';
import { answerAuthorize, showAuthorize } from './authorize.ts';
import { revoke, token } from './token.ts';
import { appLimits } from '../app/limits.ts';
import { methodNotAllowed, pathRouter } from '../../runtime/router.ts';

type Handler = (ctx: Koa.Context) => Promise<void> | void;
interface Route {
  path: string;
  methods: Partial<Record<'GET' | 'POST', Handler>>;
  /** Called by clients from other origins (browser-based MCP clients): CORS, and JSON errors. */
  cors: boolean;
}

/**
 * The router of the OAuth paths. Each route takes every method: the CORS preflight and the rate
 * limit come before the method check, so a wrong method is counted and answered here (405 with
 * `Allow`), and HEAD is no GET (@koa/router would answer HEAD with a GET route).
 */
export async function oauthRouter(deps: AppDeps): Promise<Router> {
  const { config } = deps;
  const pg = deps.stores.pg;
  const limit = rateLimit(await createLimiter({ ...config.rateLimit, keyPrefix: 'oauth' }, pg));
  // The consent page's forms sign people in and grant access: the app's form limit too.
  const { forms } = await appLimits(config, pg);
  const resourceMetadata: Handler = (ctx) => {
    ctx.body = protectedResourceMetadata(baseUrl(ctx, config));
  };
  const routes: Route[] = [
    { path: PROTECTED_RESOURCE_PATH, cors: true, methods: { GET: resourceMetadata } },
    // RFC 9728 section 3.1: the metadata of the resource at /api/mcp; the MCP SDK's client asks here first.
    { path: `${PROTECTED_RESOURCE_PATH}${MCP_ENDPOINT}`, cors: true, methods: { GET: resourceMetadata } },
    {
      path: AUTHORIZATION_SERVER_PATH,
      cors: true,
      methods: {
        GET: (ctx) => {
          ctx.body = authorizationServerMetadata(baseUrl(ctx, config));
        },
      },
    },
    {
      path: REGISTER_PATH,
      cors: true,
      methods: { POST: (ctx) => register(ctx, pg, { perAddress: config.oauth.registrationsPerAddress }) },
    },
    {
      path: AUTHORIZE_PATH,
      cors: false,
      methods: {
        GET: (ctx) => showAuthorize(ctx, pg, config),
        POST: (ctx) => forms(ctx, () => answerAuthorize(ctx, deps)),
      },
    },
    { path: TOKEN_PATH, cors: true, methods: { POST: (ctx) => token(ctx, pg, config) } },
    { path: REVOKE_PATH, cors: true, methods: { POST: (ctx) => revoke(ctx, pg) } },
  ];

  const router = pathRouter('refused');
  for (const route of routes) {
    router.all(route.path, async (ctx) => {
      ctx.state.operation = `oauth:${route.path}`;
      if (route.cors) allowCors(ctx);
      if (ctx.method === 'OPTIONS' && route.cors) {
        ctx.status = 204;
        return;
      }
      await limit(ctx, async () => {
        const handler = route.methods[ctx.method as 'GET' | 'POST'];
        if (!handler) {
          methodNotAllowed(ctx, Object.keys(route.methods));
          return;
        }
        await handler(ctx);
      });
      // The JSON endpoints answer a 429 as an OAuth error too (the retry time stays in Retry-After).
      if (ctx.status === 429 && route.cors) {
        const message = (ctx.body as { error?: string } | undefined)?.error ?? 'Too many requests';
        ctx.body = new TooManyRequestsError(message).toResponseObject();
      }
    });
  }
  return router;
}
