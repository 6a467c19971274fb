/**
 * Launchers take any job and name no scenario (issue 49): nothing under
 * src/launchers/ imports src/scenarios/ (the job tables they run are the
 * core's, src/core/launch-jobs.ts, filled by the scenarios and imported
 * where a program starts) but the child process's entry, a program's entry
 * point like the CLI's main, which imports the scenarios' child jobs (src/scenarios/scenario-jobs.ts) and
 * nothing else of src/scenarios/; no launcher spells a built-in scenario's kind,
 * and the browser launcher knows engines/browser only through its public
 * driver API (engines/browser/driver-api.ts), never a page, driver or
 * asset module itself.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, normalize, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
const IMPORT = /(?:^|[\s;])(?:import|export)\b[^'"`;]*?\bfrom\s*['"](\.[^'"]+)['"]|import\(\s*['"](\.[^'"]+)['"]\s*\)|^import\s+['"](\.[^'"]+)['"]/gm;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return /\.c?ts$/.test(name) && !name.endsWith('.d.ts') ? [path] : [];
  });
}

/** Each relative import of `file`, as a path from the repository root. */
function importsOf(file: string): string[] {
  const out: string[] = [];
  for (const match of readFileSync(file, 'utf8').matchAll(IMPORT)) {
    const spec = match[1] ?? match[2] ?? match[3];
    if (spec) out.push(relative(ROOT, normalize(join(dirname(file), spec.replace(/\.c?js$/, '.ts')))).split(sep).join('/'));
  }
  return out;
}

const launchers = sourceFiles(join(ROOT, 'src', 'launchers'));

/** The one import of src/scenarios/ under src/launchers/: the child entry's, of every registered scenario's child jobs. */
const ENTRY_LIST = 'src/launchers/scenario-child.ts → src/scenarios/scenario-jobs.ts';

test('no launcher imports a scenario module: the job tables they run are the core\'s; the child entry imports the scenarios\' jobs alone', () => {
  assert.ok(launchers.length > 10, `expected the launchers under ${ROOT}`);
  const found = launchers.flatMap((f) => importsOf(f).filter((i) => i.startsWith('src/scenarios/')).map((i) => `${relative(ROOT, f).split(sep).join('/')} → ${i}`));
  assert.deepEqual(found, [ENTRY_LIST]);
});

test('no launcher spells a built-in scenario kind', () => {
  const found = launchers.filter((f) => /['"](classify|generate|train)['"]/.test(readFileSync(f, 'utf8'))).map((f) => relative(ROOT, f));
  assert.deepEqual(found, []);
});

test('the launchers know engines/browser only through its public driver API', () => {
  const found = launchers.flatMap((f) =>
    importsOf(f)
      .filter((i) => i.startsWith('engines/browser/') && i !== 'engines/browser/driver-api.ts')
      .map((i) => `${relative(ROOT, f)} → ${i}`),
  );
  assert.deepEqual(found, []);
});
