// The repository's source files, as the architecture tests read them: paths relative to the
// repository's root, found by walking a folder.
import { readdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

/** The files under `dir` (from the root) whose names match `name` (default .ts and .tsx), from the root. */
export function sourceFiles(dir: string, name: RegExp = /\.tsx?$/): string[] {
  return readdirSync(join(ROOT, dir), { withFileTypes: true }).flatMap((e) => {
    const path = `${dir}/${e.name}`;
    if (e.isDirectory()) return sourceFiles(path, name);
    return name.test(e.name) ? [path] : [];
  });
}
