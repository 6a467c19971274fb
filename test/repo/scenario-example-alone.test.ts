import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * Issue 49's measure of the scenario example (docs/development.md,
 * "Adding a scenario"): `startup` touches only its own folder and the one
 * line that registers it. No source names it, so nothing had to change for
 * it; and its folder imports what a built-in scenario's folder under
 * src/scenarios/ may (the layers below it, and the scenario kit), but for
 * its queue job's runner, which launches, as the built-ins' runners do
 * from src/runs/.
 */
const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
const FOLDER = 'test/helpers/example-scenario/';
/** What src/scenarios/ may import (docs/development.md, Layout). */
const SCENARIO_MAY_IMPORT = ['src/core/', 'src/hub/', 'engines/', 'reports/', 'datasets/', 'src/models/', 'src/scenarios/', FOLDER];
/** The runner a worker hands a job to measures through a launcher: it may reach src/runs/ too. */
const RUNNER = `${FOLDER}startup-queue-job.ts`;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return name === 'node_modules' ? [] : sourceFiles(path);
    return name.endsWith('.ts') && !name.endsWith('.d.ts') ? [path] : [];
  });
}

const rel = (file: string): string => relative(ROOT, file).split(sep).join('/');

test('no source outside the example names the startup scenario', () => {
  const naming = ['src', 'engines', 'reports', 'datasets', 'tools']
    .flatMap((dir) => sourceFiles(join(ROOT, dir)))
    .filter((file) => /\bstartup\b/.test(readFileSync(file, 'utf8')))
    .map(rel);
  assert.deepEqual(naming, []);
});

test("the example's folder imports what a built-in scenario's folder may, its queue runner src/runs/ too", () => {
  const outside: string[] = [];
  const files = sourceFiles(join(ROOT, FOLDER));
  assert.ok(files.length >= 9, 'the example folder is there');
  for (const file of files) {
    const allowed = rel(file) === RUNNER ? [...SCENARIO_MAY_IMPORT, 'src/runs/'] : SCENARIO_MAY_IMPORT;
    for (const m of readFileSync(file, 'utf8').matchAll(/^import [^'"]*['"]([^'"]+)['"]/gm)) {
      const spec = m[1] ?? '';
      if (spec.startsWith('node:')) continue;
      const target = rel(join(dirname(file), spec));
      if (!allowed.some((prefix) => target.startsWith(prefix))) outside.push(`${rel(file)} imports ${spec}`);
    }
  }
  assert.deepEqual(outside, []);
});
