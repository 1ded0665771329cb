// Dependencies point one way: every relative import of every .ts file under src/ and jobs/ goes to
// a layer at or below the importer's. The layers, bottom to top, are those of docs/architecture.md, "Layers":
// a file in a folder the list does not name fails too, so a new folder is placed before it is used.
// The surfaces (http, mcp, cli) share the layers below them instead of one another, so each can
// change without the others. src/web/ is the app's browser program (bundled by src/http/app/):
// it imports only itself and the few server files that are pure vocabulary (SHARED_WITH_BROWSER: lists
// the API's answers are made of, importing nothing), plus the operations' declarations as types only
// (TYPES_FOR_BROWSER), and nothing on the server imports it. Jobs sit beside the operations: both compose the domain modules, one
// for a request and one on a schedule, and every surface may start either (`answerscope jobs run`).
// No file imports itself through others, and tracking's job folders import one another one way.
// test-process: shared
import test from 'ava';
import { ROOT, sourceFiles } from './source-files.ts';
import { readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

const NEUTRAL = ['config', 'logger', 'errors', 'uuid', 'instant', 'cursor', 'column-numbers', 'text-order'].map(
  (n) => `src/${n}.ts`,
);
const DOMAINS = ['tenancy', 'tracking', 'analytics', 'content', 'audits', 'traffic', 'webhooks', 'alerts', 'reports'];
const SURFACES = ['http', 'mcp', 'cli'];
/** tracking's folders, one per job (docs/architecture.md); only the shapes they share sit beside them. */
const TRACKING_JOBS = ['capture', 'analysis', 'ingest', 'reanalysis'];
const TRACKING_SHARED = ['src/tracking/types.ts'];
const TOP = ['src/server.ts', 'src/main.ts', 'src/demo.ts'];

/** Layer names by rank, bottom first; files of one rank may import one another. */
const LAYERS = ['neutral', 'runtime', 'stores', 'domain modules', 'operations and jobs', 'surfaces', 'top'];

function rank(path: string): number | undefined {
  const [root, folder] = path.split('/');
  if (root === 'jobs') return 4;
  if (root !== 'src') return undefined;
  if (NEUTRAL.includes(path)) return 0;
  if (TOP.includes(path)) return 6;
  if (!path.slice('src/'.length).includes('/')) return undefined;
  if (folder === 'runtime') return 1;
  if (folder === 'stores') return 2;
  if (DOMAINS.includes(folder)) return 3;
  if (folder === 'operations') return 4;
  if (SURFACES.includes(folder)) return 5;
  return undefined;
}

/** The surface a path belongs to, for the rule that surfaces import nothing of one another. */
function surface(path: string): string | undefined {
  const [root, folder] = path.split('/');
  return root === 'src' && SURFACES.includes(folder) && path.split('/').length > 2 ? folder : undefined;
}

/** The app's browser program: a world of its own. */
const WEB = 'src/web/';
/** Server files the browser may import: constant lists with no imports, so no server code is bundled. */
const SHARED_WITH_BROWSER = ['src/tenancy/tracked.ts', 'src/audits/categories.ts', 'src/analytics/metric-names.ts'];

// Static imports and re-exports (`from '...'`), bare imports (`import '...'`) and dynamic ones.
const IMPORT = /(?:\bfrom\s*|\bimport\s*\(?\s*)['"](\.{1,2}\/[^'"]+)['"]/g;

function relativeImports(source: string): string[] {
  return [...source.matchAll(IMPORT)].map((m) => m[1]);
}

/**
 * Server files the browser may import with `import type` only: the operations' declarations, so a
 * page's reads are typed by the operations' schemas (src/web/operation-types.ts). esbuild drops a
 * type-only import, so no server code enters the bundle; any other form of import would bundle it.
 */
const TYPES_FOR_BROWSER = ['src/operations/index.ts'];

// `import type { ... } from '...'`, the one form that never reaches the bundle.
const TYPE_IMPORT = /\bimport\s+type\s+(?:\{[^}]*\}|\*\s+as\s+\w+|\w+)\s*from\s*['"](\.{1,2}\/[^'"]+)['"]/g;

/** The relative imports of `source` that are not `import type` (each type-only import taken out once). */
function valueImports(source: string): string[] {
  const types = [...source.matchAll(TYPE_IMPORT)].map((m) => m[1]);
  return relativeImports(source).filter((spec) => {
    const at = types.indexOf(spec);
    if (at < 0) return true;
    types.splice(at, 1);
    return false;
  });
}

test('the import reader sees every form of relative import', (t) => {
  const source = [
    "import a from '../a.ts';",
    "import type { B } from './b.ts';",
    "export { c } from '../c.ts';",
    "import './d.ts';",
    "const e = await import('../../e.ts');",
    "import {\n  f,\n} from '../f.ts';",
    "import pino from 'pino';",
  ].join('\n');
  t.deepEqual(relativeImports(source), ['../a.ts', './b.ts', '../c.ts', './d.ts', '../../e.ts', '../f.ts']);
});

test('the import reader tells `import type` from every other form of import', (t) => {
  const source = [
    "import type { A } from '../a.ts';",
    "import { type B } from '../b.ts';",
    "import type {\n  C,\n  D,\n} from '../c.ts';",
    "import { e } from '../c.ts';",
    "export type { F } from '../f.ts';",
    "const g = await import('../a.ts');",
  ].join('\n');
  t.deepEqual(valueImports(source), ['../b.ts', '../c.ts', '../f.ts', '../a.ts']);
});

test('every file under src/ and jobs/ sits in a layer, and imports only its own layer or those below', (t) => {
  const problems: string[] = [];
  for (const file of [...sourceFiles('src'), ...sourceFiles('jobs')]) {
    if (file.startsWith(WEB)) {
      const source = readFileSync(join(ROOT, file), 'utf8');
      const values = valueImports(source);
      for (const spec of relativeImports(source)) {
        const target = relative(ROOT, resolve(ROOT, dirname(file), spec));
        if (SHARED_WITH_BROWSER.includes(target)) continue;
        if (TYPES_FOR_BROWSER.includes(target) && !values.includes(spec)) continue;
        if (!target.startsWith(WEB)) problems.push(`${file} (the browser's program) imports ${target}`);
      }
      continue;
    }
    const from = rank(file);
    if (from === undefined) {
      problems.push(`${file} is in no layer (place its folder in test/architecture/layers.test.ts)`);
      continue;
    }
    for (const spec of relativeImports(readFileSync(join(ROOT, file), 'utf8'))) {
      const target = relative(ROOT, resolve(ROOT, dirname(file), spec));
      if (target.startsWith(WEB)) problems.push(`${file} imports ${target} (the browser's program)`);
      const to = rank(target);
      if (to === undefined) continue;
      if (to > from) problems.push(`${file} (${LAYERS[from]}) imports ${target} (${LAYERS[to]})`);
      else if (surface(file) && surface(target) && surface(file) !== surface(target)) {
        problems.push(`${file} (${surface(file)}) imports ${target} (${surface(target)})`);
      }
    }
  }
  for (const shared of SHARED_WITH_BROWSER) {
    const imports = relativeImports(readFileSync(join(ROOT, shared), 'utf8'));
    if (imports.length) problems.push(`${shared} is shared with the browser, so it may import nothing`);
  }
  t.deepEqual(problems, []);
});

test('every file of src/tracking sits in the folder of its job', (t) => {
  const outside = sourceFiles('src/tracking').filter(
    (file) => !TRACKING_SHARED.includes(file) && !TRACKING_JOBS.includes(file.split('/')[2]),
  );
  t.deepEqual(outside, [], 'place the file in one of the job folders, or the folder in TRACKING_JOBS');
});

/** The import cycles between domain modules: each a path that comes back to its start. */
function moduleCycles(edges: ReadonlyMap<string, ReadonlySet<string>>): string[][] {
  const cycles: string[][] = [];
  const seen = new Set<string>();
  const visit = (node: string, path: string[]) => {
    for (const next of edges.get(node) ?? []) {
      const at = path.indexOf(next);
      if (at >= 0) {
        const cycle = path.slice(at);
        // Each cycle once, from its first module in name order.
        const start = cycle.indexOf([...cycle].sort()[0]);
        const key = [...cycle.slice(start), ...cycle.slice(0, start)].join(' -> ');
        if (!seen.has(key)) {
          seen.add(key);
          cycles.push([...cycle.slice(start), ...cycle.slice(0, start), cycle[start]]);
        }
      } else visit(next, [...path, next]);
    }
  };
  for (const node of [...edges.keys()].sort()) visit(node, [node]);
  return cycles;
}

test('the cycle finder reports each cycle once, and none where there is none', (t) => {
  const graph = (pairs: [string, string][]) => {
    const edges = new Map<string, Set<string>>();
    for (const [a, b] of pairs) edges.set(a, (edges.get(a) ?? new Set()).add(b));
    return edges;
  };
  t.deepEqual(
    moduleCycles(
      graph([
        ['a', 'b'],
        ['b', 'c'],
        ['a', 'c'],
      ]),
    ),
    [],
  );
  t.deepEqual(
    moduleCycles(
      graph([
        ['tracking', 'tenancy'],
        ['tenancy', 'tracking'],
      ]),
    ),
    [['tenancy', 'tracking', 'tenancy']],
  );
  t.deepEqual(
    moduleCycles(
      graph([
        ['webhooks', 'alerts'],
        ['alerts', 'webhooks'],
        ['webhooks', 'content'],
        ['content', 'webhooks'],
      ]),
    ),
    [
      ['alerts', 'webhooks', 'alerts'],
      ['content', 'webhooks', 'content'],
    ],
  );
});

test('no two domain modules import each other, directly or through others (type imports count)', (t) => {
  const edges = new Map<string, Set<string>>();
  for (const [file, targets] of fileImports(['src'])) {
    const [, from] = file.split('/');
    if (!DOMAINS.includes(from) || !file.slice('src/'.length).includes('/')) continue;
    for (const target of targets) {
      const [root, to] = target.split('/');
      if (root === 'src' && DOMAINS.includes(to) && to !== from)
        edges.set(from, (edges.get(from) ?? new Set()).add(to));
    }
  }
  t.true(edges.size >= 5, 'the modules import one another somewhere: the reader works');
  t.deepEqual(
    moduleCycles(edges).map((c) => c.join(' -> ')),
    [],
    'a module imports one that imports it back: move what both need down to the one imported, or the composition up (operations, jobs)',
  );
});

/** The groups of files that import one another round in a circle (Tarjan's strongly connected components). */
function fileCircles(edges: ReadonlyMap<string, ReadonlySet<string>>): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const circles: string[][] = [];
  const visit = (v: string) => {
    index.set(v, next);
    low.set(v, next++);
    stack.push(v);
    onStack.add(v);
    for (const w of edges.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) !== index.get(v)) return;
    const circle: string[] = [];
    let w: string;
    do {
      w = stack.pop()!;
      onStack.delete(w);
      circle.push(w);
    } while (w !== v);
    if (circle.length > 1) circles.push(circle.sort());
  };
  for (const v of [...edges.keys()].sort()) if (!index.has(v)) visit(v);
  return circles.sort((a, b) => a[0].localeCompare(b[0]));
}

/** Every relative import of the .ts files under `dirs`, file to file. */
function fileImports(dirs: string[]): Map<string, Set<string>> {
  const edges = new Map<string, Set<string>>();
  for (const file of dirs.flatMap((dir) => sourceFiles(dir))) {
    for (const spec of relativeImports(readFileSync(join(ROOT, file), 'utf8'))) {
      const target = relative(ROOT, resolve(ROOT, dirname(file), spec));
      edges.set(file, (edges.get(file) ?? new Set()).add(target));
    }
  }
  return edges;
}

test('the circle finder finds each group of files importing one another, and none where there is none', (t) => {
  const graph = (pairs: [string, string][]) => {
    const edges = new Map<string, Set<string>>();
    for (const [a, b] of pairs) edges.set(a, (edges.get(a) ?? new Set()).add(b));
    return edges;
  };
  const tree: [string, string][] = [
    ['a', 'b'],
    ['b', 'c'],
    ['a', 'c'],
  ];
  t.deepEqual(fileCircles(graph(tree)), []);
  t.deepEqual(
    fileCircles(
      graph([
        ['routes', 'overview'],
        ['overview', 'routes'],
        ['routes', 'answers'],
        ['answers', 'routes'],
        ['x', 'y'],
        ['y', 'z'],
        ['z', 'x'],
        ['z', 'routes'],
      ]),
    ),
    [
      ['answers', 'overview', 'routes'],
      ['x', 'y', 'z'],
    ],
  );
});

test('no file imports itself through others (type imports count): a circle is one module in several files', (t) => {
  const edges = fileImports(['src', 'jobs']);
  t.true(edges.size > 100, 'the reader works');
  t.deepEqual(
    fileCircles(edges).map((c) => c.join(', ')),
    [],
    'move what both files need into a file of its own that imports neither',
  );
});

/**
 * Inside tracking, the jobs' folders depend one way: analysis is pure and imports no other job;
 * ingest stores what analysis derives; capture and re-analysis both feed ingest, and neither the other.
 */
const TRACKING_MAY_IMPORT: Record<string, string[]> = {
  analysis: [],
  ingest: ['analysis'],
  capture: ['analysis', 'ingest'],
  reanalysis: ['analysis', 'ingest'],
};

test("tracking's jobs import one another one way: analysis, then ingest, then capture and re-analysis", (t) => {
  const problems: string[] = [];
  for (const [file, targets] of fileImports(['src/tracking'])) {
    const from = file.split('/')[2];
    for (const target of targets) {
      const [root, domain, to] = target.split('/');
      if (root !== 'src' || domain !== 'tracking' || to === from || !(to in TRACKING_MAY_IMPORT)) continue;
      if (!TRACKING_MAY_IMPORT[from]?.includes(to)) problems.push(`${file} (${from}) imports ${target} (${to})`);
    }
  }
  t.deepEqual(problems, []);
});
