// The app's scripts and styles, built from src/web/ by esbuild when the server starts: one bundle
// of each, in memory, named by the hash of its content so browsers may keep it a year. Nothing is
// downloaded or written to disk, and a start never serves a bundle older than the sources.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const ENTRY = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../web/main.tsx');
export const ASSETS_PREFIX = '/app/assets/';

export interface Asset {
  body: Buffer;
  type: string;
}

export interface AppAssets {
  /** The URL paths of the script and the style sheet, for the pages' head. */
  script: string;
  style: string;
  byPath: Map<string, Asset>;
}

const TYPES: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
};

async function buildAssets(): Promise<AppAssets> {
  const result = await build({
    entryPoints: { app: ENTRY },
    bundle: true,
    minify: true,
    format: 'esm',
    target: ['es2020'],
    jsx: 'automatic',
    jsxImportSource: 'preact',
    outdir: '/app-assets',
    entryNames: '[name]-[hash]',
    write: false,
    logLevel: 'silent',
    legalComments: 'none',
  });
  const byPath = new Map<string, Asset>();
  let script = '';
  let style = '';
  for (const file of result.outputFiles) {
    const name = path.basename(file.path);
    const url = ASSETS_PREFIX + name;
    const ext = path.extname(name);
    byPath.set(url, { body: Buffer.from(file.contents), type: TYPES[ext] ?? 'application/octet-stream' });
    if (ext === '.js') script = url;
    if (ext === '.css') style = url;
  }
  if (!script || !style) throw new Error('the app bundle has no script or no style sheet');
  return { script, style, byPath };
}

let built: Promise<AppAssets> | undefined;

/** The bundle, built once per process (tests start several servers in one). */
export function appAssets(): Promise<AppAssets> {
  built ??= buildAssets().catch((err) => {
    built = undefined;
    throw err;
  });
  return built;
}
