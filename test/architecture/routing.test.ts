// HTTP is routed one way: every route sits on a @koa/router Router made by src/runtime/router.ts
// (docs/architecture.md, "The request path"). No middleware of the server picks a handler by
// comparing or looking up the request's path; the few that read the path for another reason are
// listed below with that reason, so a new one is argued here or moved onto a router.
// test-process: shared
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import test from 'ava';
import { ROOT, sourceFiles } from './source-files.ts';

/** The server's files: src/ but the browser program (src/web/), which has no ctx. */
const serverFiles = () => sourceFiles('src').filter((file) => !file.startsWith('src/web/'));

/** The path compared, looked up, switched on or matched by prefix: how a handler is picked by hand. */
const BY_PATH =
  /ctx\.path\s*[!=]==|[!=]==\s*ctx\.path\b|\.(?:get|has)\(ctx\.path\)|\[ctx\.path\]|switch\s*\(\s*ctx\.path|ctx\.path\.startsWith\(/;

/** Reads of the path that pick no route, by file: the line's text (or its start), and why. */
const NOT_ROUTING: Record<string, [string, string][]> = {
  'src/http/pipeline.ts': [
    ["const level = PROBE_PATHS.has(ctx.path) ? 'debug' : 'info';", 'the log level of probes'],
    // The guard judges every spelling of /api/ before any routing (docs/api.md section 9).
    ['if (!underApi(ctx.path) || OWN_RATE_LIMIT_PATHS.has(ctx.path)) return next();', 'the guard'],
    ['if (KEYLESS_API_PATHS.has(ctx.path)) return limit(ctx, next);', 'the guard'],
    ['const limited = ownLimits.get(ctx.path) ?? limit;', 'the guard'],
  ],
  'src/http/auth.ts': [['if (ctx.path !== MCP_ENDPOINT) {', "the key check: which 401 carries MCP's challenge"]],
  'src/mcp/http.ts': [
    [
      "if (ctx.path === MCP_PATH && !originAllowed(ctx.get('origin') || undefined, deps.config.mcp.allowedOrigins)) {",
      "the guard's origin check, before the key",
    ],
  ],
  'src/http/app/routes.ts': [
    ["const next = ctx.path === '/app' ? '' :", 'where sign-in returns to'],
    // The app's prefix: its compression, headers, bundle files and the shell for what no route answered.
    ["const underApp = ctx.path === '/app' || ctx.path.startsWith('/app/');", "the app's prefix"],
    ["if (!underApp && ctx.path !== '/') return next();", "the app's prefix"],
    ['if (ctx.path.startsWith(ASSETS_PREFIX)) return serveAsset(ctx, assets);', "the bundle's files"],
    ["!ctx.path.startsWith('/app/api/') &&", 'the shell is no JSON route'],
    ['const asset = assets.byPath.get(ctx.path);', "the bundle's files, by their hashed names"],
  ],
};

test('no middleware routes by the path outside a router', (t) => {
  const found: string[] = [];
  for (const file of serverFiles()) {
    const allowed = (NOT_ROUTING[file] ?? []).map(([line]) => line);
    readFileSync(join(ROOT, file), 'utf8')
      .split('\n')
      .forEach((line, i) => {
        if (BY_PATH.test(line) && !allowed.some((a) => line.trim().startsWith(a)))
          found.push(`${file}:${i + 1}: ${line.trim()}`);
      });
  }
  t.deepEqual(found, [], `routing by path outside a router:\n${found.join('\n')}`);
});

test('every listed read of the path is still there (the list holds no stale line)', (t) => {
  for (const [file, lines] of Object.entries(NOT_ROUTING)) {
    const text = readFileSync(join(ROOT, file), 'utf8')
      .split('\n')
      .map((l) => l.trim());
    for (const [line] of lines)
      t.true(
        text.some((l) => l.startsWith(line)),
        `${file}: ${line}`,
      );
  }
});

test('every router is made by pathRouter (src/runtime/router.ts), with its matching options', (t) => {
  const made = serverFiles().filter(
    (file) => file !== 'src/runtime/router.ts' && /new Router\(/.test(readFileSync(join(ROOT, file), 'utf8')),
  );
  t.deepEqual(made, []);
});
