/**
 * The engine-family example of docs/development.md ("Adding an engine
 * family"), run through every path: the toy family (test/helpers/toy-family/)
 * opens a format of its own, `toy-json`, which its module registers in the
 * format table, and is given to inferbench the way plug-in engines are,
 * `--engine-module` (one line: the module's path). Its cells run in an
 * isolated child (a run's default) and in process (`--no-isolate`), are in
 * the history (`list`, `show`) and the dashboard, which runs it too, and
 * run on a queue worker; `inspect` and `engines` list it. Each cell says it opened a toy-json file written
 * from the model's ONNX graph: read back from the file the engine opened.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { EngineRegistry } from '../../../src/core/engine-registry.js';
import { packageRoot } from '../../../src/core/package-info.js';
import type { CellResult, RunRecord } from '../../../src/core/results.js';
import { startDashboard } from '../../../src/dashboard/server.js';
import { registerEngineModules } from '../../../src/launchers/engine-modules.js';
import { runCli } from '../../helpers/cli.js';
import { call, TINY_RUN_ONE_ROUND, waitForEnd } from '../../helpers/dashboard.js';
import { REDIS_SKIP, startRedis, startWorker } from '../../helpers/redis-server.js';
import { testOutputDir, useTestCache } from '../../helpers/test-cache.js';

/** The family's module, as built: what `--engine-module` names. */
const FAMILY = join(packageRoot(), 'dist', 'test', 'helpers', 'toy-family', 'toy-family.js');
/** One timed batch per cell: where the cells run is the subject, not how long they take. */
const TINY = ['--engines', 'toy', '--engine-module', FAMILY, '--batch-sizes', '1,2', '--limit', '8', '--min-time', '0', '--min-batches', '1', '--max-time', '5', '--rounds', '1', '--warmup', '0', '--reference', 'none', '--no-png'];
const OPENED = 'opened toy-json written from model.onnx';

function runs(out: string): RunRecord[] {
  return readdirSync(out)
    .filter((f) => !f.startsWith('history'))
    .sort()
    .map((f) => JSON.parse(readFileSync(join(out, f, 'results.json'), 'utf8')) as RunRecord);
}

/** Each cell completed on the toy engine, from the toy-json file its family wrote from the graph. */
function assertToyCells(cells: readonly CellResult[], what: string): void {
  assert.equal(cells.length, 2, `${what}: one cell per batch size`);
  for (const c of cells) {
    assert.equal(c.state, 'completed', `${what}: ${JSON.stringify(c).slice(0, 300)}`);
    if (c.state !== 'completed') continue;
    assert.equal(c.engine, 'toy');
    assert.deepEqual(c.session.notes, [OPENED], `${what}: the engine opened its own format`);
  }
}

test('the toy engine family runs from the CLI in an isolated child (run and load) and in process, and is in the history and the dashboard, which runs it too', async (t) => {
  const out = testOutputDir('engine-family-example');
  const isolated = await runCli(['run', ...TINY, '--out', out]);
  assert.equal(isolated.code, 0, isolated.stderr);
  const inProcess = await runCli(['run', ...TINY, '--no-isolate', '--out', out]);
  assert.equal(inProcess.code, 0, inProcess.stderr);
  const [first, second] = runs(out);
  assert.equal(first?.config['isolate'], true, 'a run is isolated by default: the child registered the module');
  assertToyCells(first?.cells ?? [], 'isolated');
  assert.equal(second?.config['isolate'], false);
  assertToyCells(second?.cells ?? [], 'in process');

  const listed = JSON.parse((await runCli(['list', '--out', out, '--json'])).stdout) as { id: number; state: string; cellsDone: number }[];
  assert.deepEqual(listed.map((e) => [e.id, e.state, e.cellsDone]), [[2, 'completed', 2], [1, 'completed', 2]]);
  const shown = JSON.parse((await runCli(['show', '1', '--out', out, '--json'])).stdout) as { cells: CellResult[] };
  assertToyCells(shown.cells, 'show --json');
  const show = await runCli(['show', '1', '--out', out]);
  assert.equal(show.code, 0, show.stderr);
  assert.match(show.stdout, /^  engines: +toy$/m);
  assert.match(show.stdout, /\) +toy +1 +1 /, 'the report has a row of the toy engine');

  // Another scenario's isolated child gets the module too: load serves requests through the toy engine.
  const loadOut = testOutputDir('engine-family-load');
  const load = await runCli(['load', '--engines', 'toy', '--engine-module', FAMILY, '--rates', '50', '--duration', '1', '--min-queries', '10', '--warmup', '0', '--rounds', '1', '--limit', '16', '--no-png', '--out', loadOut]);
  assert.equal(load.code, 0, load.stderr);
  const [loadRun] = runs(loadOut);
  assert.equal(loadRun?.config['isolate'], true);
  assert.deepEqual(loadRun?.cells.map((c) => [c.engine, c.state, c.state === 'completed' ? c.session.notes : null]), [['toy', 'completed', [OPENED]]]);

  // inspect and engines know the family from its module too: the verdict asks the format table why the graph would be refused.
  const inspected = JSON.parse((await runCli(['inspect', '--engines', 'toy', '--engine-module', FAMILY, '--json'])).stdout) as { engines: { engine: string; canRun: boolean; reason: string | null }[] };
  assert.deepEqual(inspected.engines, [{ engine: 'toy', canRun: true, reason: null }]);
  assert.match((await runCli(['engines', '--engine-module', FAMILY])).stdout, /^toy +yes +toy-engine 1\.0\.0/m);

  // The dashboard's registry gets the family as the CLI's does.
  useTestCache();
  const registry = new EngineRegistry({});
  await registerEngineModules([FAMILY], registry);
  const dash = await startDashboard({ out, port: 0, log: () => {}, registry });
  t.after(() => dash.close());
  const views = await call(dash.url, 'GET', '/api/runs/1/views');
  assert.equal(views.status, 200, JSON.stringify(views.body));
  assert.match(JSON.stringify(views.body), /"toy"/, 'the dashboard shows the toy cells');
  const started = await call(dash.url, 'POST', '/api/runs', { ...TINY_RUN_ONE_ROUND, engines: ['toy'], isolate: true });
  assert.equal(started.status, 201, JSON.stringify(started.body));
  const entry = await waitForEnd(dash.url, started.body.id as number);
  assert.equal(entry.state, 'completed', JSON.stringify(entry));
  const fromDashboard = runs(out).find((r) => r.id === entry.runId);
  assertToyCells(fromDashboard?.cells ?? [], 'dashboard, isolated');
});

test('the toy engine family runs on a queue worker given its module, each job in a child there', { skip: REDIS_SKIP }, async () => {
  const redis = await startRedis();
  const worker = await startWorker(redis.url, 'toy-box', ['--engines', 'toy', '--engine-module', FAMILY]);
  try {
    const out = testOutputDir('engine-family-queue');
    const r = await runCli(['run', '--queue', redis.url, ...TINY, '--out', out]);
    assert.equal(r.code, 0, r.stderr);
    const [run] = runs(out);
    assertToyCells(run?.cells ?? [], 'queue');
    assert.ok(run?.cells.every((c) => c.host?.name === 'toy-box'), 'measured on the worker');
  } finally {
    await worker.stop();
    await redis.stop();
  }
});
