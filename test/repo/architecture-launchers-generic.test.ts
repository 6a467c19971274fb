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
import { readFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { relativeImports, ROOT, sourceFiles } from '../helpers/repo-sources.js';


/** Each relative import of `file`, as a path from the repository root. */
function importsOf(file: string): string[] {
  return relativeImports(relative(ROOT, file), readFileSync(file, 'utf8'));
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
