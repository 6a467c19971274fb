/**
 * One folder per scenario (issue 49): a scenario's code lives in its own
 * folder under src/scenarios/, so no scenario folder imports another's (a
 * part two scenarios share belongs to the run kit beside the folders, or
 * below), and the run kit beside the folders imports no scenario folder but
 * through `builtin-scenarios.ts`, the one list a new built-in adds a line
 * to. Before this held, load's serving round imported classify's open group
 * and failed cell, the request caps imported load's config, and one
 * dashboard-views module beside the folders held generate's and train's
 * views.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { relativeImports, ROOT, sourceFiles } from '../helpers/repo-sources.js';

const SCENARIOS = join(ROOT, 'src', 'scenarios');

/** The relative imports of `file` that land in src/scenarios/, as paths below it. */
function scenarioImports(file: string): string[] {
  return relativeImports(relative(SCENARIOS, file), readFileSync(file, 'utf8')).filter((target) => !target.startsWith('..'));
}

/** The scenario folder a path below src/scenarios/ is in, or null for the run kit beside the folders. */
const folderOf = (path: string): string | null => (path.includes('/') ? (path.split('/')[0] as string) : null);

/** The imports of `from` (paths below src/scenarios/) that cross from one scenario folder into another, or from the run kit into a folder (but builtin-scenarios.ts's). */
function crossingsOf(from: string, imports: readonly string[]): string[] {
  if (from === 'builtin-scenarios.ts') return [];
  const own = folderOf(from);
  return imports.filter((to) => folderOf(to) !== null && folderOf(to) !== own).map((to) => `src/scenarios/${from} → src/scenarios/${to}`);
}

test('no scenario folder imports another, and the run kit beside them imports none but builtin-scenarios.ts', () => {
  const files = sourceFiles(SCENARIOS);
  assert.ok(files.length > 50, `expected the scenarios under ${SCENARIOS}`);
  const found = files.flatMap((file) => crossingsOf(relative(SCENARIOS, file).split(sep).join('/'), scenarioImports(file)));
  assert.deepEqual(found, []);
});

test('the check sees each kind of crossing, and lets a folder import itself and the kit', () => {
  assert.deepEqual(crossingsOf('load/rate-group.ts', ['classify/open-group.ts', 'load/load-run.ts', 'run-driver.ts']), ['src/scenarios/load/rate-group.ts → src/scenarios/classify/open-group.ts']);
  assert.deepEqual(crossingsOf('request-caps.ts', ['load/load-run.ts']), ['src/scenarios/request-caps.ts → src/scenarios/load/load-run.ts']);
  assert.deepEqual(crossingsOf('builtin-scenarios.ts', ['load/load-scenario.ts']), []);
  // The real list does import every built-in folder: read from any other file, those imports would cross.
  const listed = scenarioImports(join(SCENARIOS, 'builtin-scenarios.ts'));
  assert.ok(listed.filter((to) => folderOf(to) !== null).length >= 4, listed.join(', '));
});
