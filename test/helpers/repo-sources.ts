/**
 * The repository's source files and their relative imports, read as text,
 * for the architecture tests under test/repo/ that follow the imports
 * (which file reaches which) rather than run the code.
 */
import { readdirSync, statSync } from 'node:fs';
import { dirname, join, normalize, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository root (this file runs from dist/test/helpers/). */
export const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');

/** A relative import: `import … from './x.js'`, `export … from`, `import('./x.js')`, or a bare `import './x.js'`. */
const IMPORT = /(?:^|[\s;])(?:import|export)\b[^'"`;]*?\bfrom\s*['"](\.[^'"]+)['"]|import\(\s*['"](\.[^'"]+)['"]\s*\)|^import\s+['"](\.[^'"]+)['"]/gm;

/** Every TypeScript source below `dir` (.ts and .cts, not declarations). */
export function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return /\.c?ts$/.test(name) && !name.endsWith('.d.ts') ? [path] : [];
  });
}

/** The relative imports in `text` of the file at `file`, each as the .ts path it names, joined to the file's folder ('/'-separated). */
export function relativeImports(file: string, text: string): string[] {
  const out: string[] = [];
  for (const match of text.matchAll(IMPORT)) {
    const spec = match[1] ?? match[2] ?? match[3];
    if (spec) out.push(normalize(join(dirname(file), spec.replace(/\.c?js$/, '.ts'))).split(sep).join('/'));
  }
  return out;
}
