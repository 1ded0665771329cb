// GET /api/openapi.json (the generated document) and GET /docs, an API reference page rendered by
// Swagger UI from that document. The renderer is served from node_modules (swagger-ui-dist), never
// from a CDN, and the page's Content-Security-Policy allows this origin only, so reading the docs
// makes no request elsewhere. Both are public: the document holds no tenant data.
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { createHash } from 'node:crypto';
import { createRequire } from 'node:module';
import type Koa from 'koa';
import type { Operation } from '../operations/registry.ts';
import { buildOpenApi } from './openapi.ts';
import { forMethods, pathRouter } from '../runtime/router.ts';

export const OPENAPI_PATH = '/api/openapi.json';
export const DOCS_PATH = '/docs';

const CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

const PAGE = `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Answerscope API reference</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="${DOCS_PATH}/swagger-ui.css">
</head>
<body>
<div id="swagger-ui"></div>
<script src="${DOCS_PATH}/swagger-ui-bundle.js"></script>
<script src="${DOCS_PATH}/init.js"></script>
</body>
</html>
`;

// validatorUrl: null keeps Swagger UI from sending the document to its public validator.
const INIT = `window.ui = SwaggerUIBundle({
  url: ${JSON.stringify(OPENAPI_PATH)},
  dom_id: '#swagger-ui',
  deepLinking: true,
  validatorUrl: null,
  defaultModelsExpandDepth: 0,
  docExpansion: 'list',
});
`;

interface Asset {
  type: string;
  body: Buffer;
  gzip: Buffer;
  etag: string;
}

function asset(type: string, body: Buffer | string): Asset {
  const buf = Buffer.from(body);
  return {
    type,
    body: buf,
    gzip: zlib.gzipSync(buf),
    etag: `"${createHash('sha256').update(buf).digest('base64url').slice(0, 27)}"`,
  };
}

function serve(ctx: Koa.Context, a: Asset, headers: Record<string, string> = {}) {
  ctx.set({
    'Content-Type': a.type,
    ETag: a.etag,
    'Cache-Control': 'public, max-age=300',
    Vary: 'Accept-Encoding',
    ...headers,
  });
  if (ctx.fresh) {
    ctx.status = 304;
    return;
  }
  if (ctx.acceptsEncodings('gzip', 'identity') === 'gzip') {
    ctx.set('Content-Encoding', 'gzip');
    ctx.body = a.gzip;
  } else {
    ctx.body = a.body;
  }
}

export function docsMount(operations: readonly Operation[]): (app: Koa) => void {
  const uiDir = path.dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));
  const bundled = (name: string) => fs.readFileSync(path.join(uiDir, name));
  // Each built on first use: the 2 MB renderer is not read (nor compressed) by a server nobody asks for docs.
  const files: [string, () => Asset, Record<string, string>?][] = [
    [
      OPENAPI_PATH,
      () => asset('application/json; charset=utf-8', JSON.stringify(buildOpenApi(operations))),
      // Client generators and other sites' doc viewers may fetch the document from a browser.
      { 'Access-Control-Allow-Origin': '*' },
    ],
    [DOCS_PATH, () => asset('text/html; charset=utf-8', PAGE), { 'Content-Security-Policy': CSP }],
    [`${DOCS_PATH}/init.js`, () => asset('text/javascript; charset=utf-8', INIT)],
    [
      `${DOCS_PATH}/swagger-ui-bundle.js`,
      () => asset('text/javascript; charset=utf-8', bundled('swagger-ui-bundle.js')),
    ],
    [`${DOCS_PATH}/swagger-ui.css`, () => asset('text/css; charset=utf-8', bundled('swagger-ui.css'))],
  ];
  const router = pathRouter('refused');
  for (const [file, build, headers] of files) {
    let built: Asset | undefined;
    router.get(file, (ctx) => {
      built ??= build();
      serve(ctx, built, { 'X-Content-Type-Options': 'nosniff', ...headers });
    });
  }
  // Only GET and HEAD reach the router; another method passes on, as for a path nobody answers.
  return (app) => {
    app.use(forMethods(['GET', 'HEAD'], router));
  };
}
