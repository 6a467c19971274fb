/**
 * The scenario example of docs/development.md ("Adding a scenario"), run
 * through every path: `startup` (test/helpers/example-scenario/), a
 * built-in-shaped scenario registered by one line (`--scenario-module` on
 * the command line, an import in this process), runs from the `inferbench`
 * binary with its cells in isolated children by default and in process
 * with `--no-isolate`, is in the history (`list`, `show`, `rerun`), is started and
 * drawn by the dashboard, and runs on an `inferbench worker` given the
 * module, each job's starts timed in children there. Where each start was
 * timed is read back from the process that timed it.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { packageRoot } from '../../../src/core/package-info.js';
import { HistoryStore } from '../../../src/runs/history/history-store.js';
// The one registration line in this process (for the dashboard below): importing the scenario's module registers it.
import '../../helpers/example-scenario/startup-scenario.js';
import { STARTUP_JOB_SCHEMA } from '../../helpers/example-scenario/startup-queue-job.js';
import type { StartupCell, StartupRecord } from '../../helpers/example-scenario/startup-results.js';
import { runCli } from '../../helpers/cli.js';
import { call, startTestDashboard, waitForEnd } from '../../helpers/dashboard.js';
import { QueueWatch } from '../../helpers/queue-inject.js';
import { REDIS_SKIP, startRedis, startWorker } from '../../helpers/redis-server.js';
import { testOutputDir } from '../../helpers/test-cache.js';

/** The scenario's module, as built: the one registration line on the command line is `--scenario-module` naming it. */
const MODULE = join(packageRoot(), 'dist', 'test', 'helpers', 'example-scenario', 'startup-scenario.js');
const WITH = ['--scenario-module', MODULE];

/** The cells of the run that entry `id` recorded, from its results.json. */
async function cellsOf(out: string, id: number): Promise<readonly StartupCell[]> {
  const entry = await new HistoryStore(out).require(id);
  assert.ok(entry.dir !== null, `entry ${id} has a run folder`);
  return (JSON.parse(readFileSync(join(entry.dir, 'results.json'), 'utf8')) as StartupRecord).cells;
}

/** One onnx-cpu cell of `rounds` starts, each timed in a fresh child (isolated) or in the run's process. */
function assertStarts(cells: readonly StartupCell[], rounds: number, isolated: boolean, what: string): void {
  assert.equal(cells.length, 1, what);
  const [cell] = cells;
  assert.ok(cell?.state === 'completed', `${what}: ${JSON.stringify(cell)}`);
  assert.equal(cell.engine, 'onnx-cpu');
  assert.equal(cell.samples.length, rounds, `${what}: one sample per round`);
  assert.equal(cell.cold, isolated, `${what}: cold only when timed in children`);
  assert.ok(cell.samples.every((s) => s.available && s.versions?.['onnxruntime-node'] !== undefined), `${what}: the versions are read back from the engine`);
  const pids = new Set(cell.samples.map((s) => s.pid));
  if (isolated) {
    assert.ok(!pids.has(process.pid), `${what}: timed in other processes`);
    assert.equal(pids.size, rounds, `${what}: a fresh process per round`);
  } else assert.equal(pids.size, 1, `${what}: timed in the run's own process (not cold: its pid is the run's)`);
}

test('the example scenario runs from the CLI (isolated and in process), is listed and shown, and the dashboard starts and draws it', async (t) => {
  const out = testOutputDir('scenario-example');
  const isolated = await runCli(['startup', ...WITH, '--engines', 'onnx-cpu', '--rounds', '2', '--out', out, '--quiet']);
  assert.equal(isolated.code, 0, isolated.stderr);
  assert.match(isolated.stdout, /^ {2}onnx-cpu +mean .+, p95 .+ over 2 rounds \(cold, fresh processes\)$/m);
  assertStarts(await cellsOf(out, 1), 2, true, 'CLI, isolated');
  const inProcess = await runCli(['startup', ...WITH, '--engines', 'onnx-cpu', '--rounds', '1', '--no-isolate', '--out', out, '--quiet']);
  assert.equal(inProcess.code, 0, inProcess.stderr);
  assertStarts(await cellsOf(out, 2), 1, false, 'CLI, in process');
  // A bad flag is the CLI's one-line user error naming it, from the options table's range.
  const bad = await runCli(['startup', ...WITH, '--rounds', '0', '--out', out]);
  assert.equal(bad.code, 2, bad.stderr);
  assert.match(bad.stderr, /^inferbench: error: --rounds /m);

  const listed = JSON.parse((await runCli(['list', ...WITH, '--out', out, '--json'])).stdout) as { id: number; config: { command: string }; state: string; cellsDone: number }[];
  assert.deepEqual(listed.map((e) => [e.id, e.config.command, e.state, e.cellsDone]), [[2, 'startup', 'completed', 1], [1, 'startup', 'completed', 1]]);
  const shown = await runCli(['show', '1', ...WITH, '--out', out]);
  assert.equal(shown.code, 0, shown.stderr);
  assert.match(shown.stdout, /^ {2}rounds: +2, each in a fresh child process$/m);
  assert.match(shown.stdout, /^ {2}onnx-cpu +mean .+ over 2 rounds \(cold, fresh processes\)$/m);
  // rerun repeats the stored config through the scenario's registration: a new entry, linked to the first, isolated again.
  const again = await runCli(['rerun', '1', ...WITH, '--out', out, '--quiet']);
  assert.equal(again.code, 0, again.stderr);
  assert.equal((await new HistoryStore(out).require(3)).rerunOf, 1);
  assertStarts(await cellsOf(out, 3), 2, true, 'rerun');

  const dash = await startTestDashboard(out, { engines: ['onnx-cpu'] });
  t.after(() => dash.close());
  const entry = (await call(dash.url, 'GET', '/api/runs')).body.entries.find((e: { id: number }) => e.id === 1);
  assert.deepEqual(entry.tabs, [{ id: 'starts', title: 'Starts' }]);
  assert.equal(entry.settingsText, '2 rounds · isolated');
  assert.equal(entry.route, 'startup');
  const views = await call(dash.url, 'GET', '/api/runs/1/views');
  assert.equal(views.status, 200, JSON.stringify(views.body));
  const rows = views.body.panels.starts.below[1].table.rows as { cells: unknown[] }[];
  assert.deepEqual(rows.map((r) => [r.cells[0], r.cells[1], r.cells[4]]), [['onnx-cpu', '2', 'fresh child']]);
  const refused = await call(dash.url, 'POST', '/api/startup', { rounds: 0 });
  assert.equal(refused.status, 400, JSON.stringify(refused.body));
  assert.match(JSON.stringify(refused.body), /rounds/);
  const started = await call(dash.url, 'POST', '/api/startup', { engines: ['onnx-cpu'], rounds: 1, isolate: true });
  assert.equal(started.status, 201, JSON.stringify(started.body));
  const ended = await waitForEnd(dash.url, started.body.id as number);
  assert.equal(ended.state, 'completed', JSON.stringify(ended));
  assertStarts(await cellsOf(out, started.body.id as number), 1, true, 'dashboard, isolated');
});

test("the example scenario's queue job runs on an inferbench worker given its module, each start timed in a child there; a payload its kind refuses never runs", { skip: REDIS_SKIP }, async () => {
  const redis = await startRedis();
  const worker = await startWorker(redis.url, 'startup-box', ['--engines', 'onnx-cpu', ...WITH]);
  const watch = await QueueWatch.open(redis.url);
  try {
    const job = (rounds: number) => ({ schema: STARTUP_JOB_SCHEMA, runId: 'r1', engine: 'onnx-cpu', rounds, workers: null, refused: {} });
    const done = await watch.add('startup-ok', job(2));
    assert.equal(done.kind, 'completed', JSON.stringify(done));
    const value = (done as { value: { kind: string; worker: string; cells: (StartupCell & { host: { name: string } })[] } }).value;
    assert.equal(value.worker, 'startup-box');
    assertStarts(value.cells, 2, true, 'queue worker');
    assert.ok(value.cells.every((c) => c.samples.every((s) => s.pid !== worker.child.pid)), 'timed in children of the worker, not the worker');
    assert.equal(value.cells[0]?.host.name, 'startup-box');
    const bad = await watch.add('startup-bad', job(0));
    assert.deepEqual(bad, { kind: 'failed', reason: 'refused by worker startup-box: not an inferbench job (field "rounds" must be a whole number from 1 to 100)' });
  } finally {
    await watch.close();
    await worker.stop();
    await redis.stop();
  }
});

test('--scenario-module refuses a module that does not exist or registers no scenario, naming it; without it the command is unknown', async () => {
  const missing = await runCli(['list', '--scenario-module', '/nonexistent/startup-scenario.js']);
  assert.equal(missing.code, 2);
  assert.match(missing.stderr, /^inferbench: error: scenario module \/nonexistent\/startup-scenario\.js does not exist\n {2}fix: pass --scenario-module the path of a JavaScript module that calls registerScenario/);
  const toy = join(packageRoot(), 'dist', 'test', 'helpers', 'toy-family', 'toy-family.js');
  const none = await runCli(['list', '--scenario-module', toy]);
  assert.equal(none.code, 2);
  assert.match(none.stderr, new RegExp(`^inferbench: error: scenario module ${toy.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')} registered no scenario$`, 'm'));
  const unknown = await runCli(['startup', '--rounds', '1']);
  assert.equal(unknown.code, 2);
  assert.match(unknown.stderr, /^inferbench: error: unknown command "startup"$/m);
  assert.match((await runCli(['--help', ...WITH])).stdout, /^ {2}startup +time each engine's start/m);
});
