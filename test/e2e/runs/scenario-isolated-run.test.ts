/**
 * Issue 31: one child entry point serves every scenario. A scenario defined
 * in a test helper (test/helpers/echo-isolated-scenario.ts), run through
 * its `execute` through the history's `executeRecorded` (the run driver and the history, as the dashboard's
 * queue runs any scenario) with isolation on, measures its cells in another
 * process: the child learns the scenario's kind from the module its
 * registration names, with no launcher edit.
 */
import test from 'node:test';
import assert from 'node:assert/strict';
import { HistoryStore } from '../../../src/runs/history/history-store.js';
import { executeRecorded } from '../../../src/runs/history/recorded-run.js';
import { registerScenario, scenarioByCommand, type Scenario } from '../../../src/scenarios/scenario-registry.js';
import { ECHO_ISOLATED, type EchoIsolatedConfig, type EchoIsolatedRecord } from '../../helpers/echo-isolated-scenario.js';
import { testOutputDir, useTestCache } from '../../helpers/test-cache.js';

async function runEcho(name: string, config: Omit<EchoIsolatedConfig, 'command' | 'out'>): Promise<{ record: EchoIsolatedRecord; cellsDone: number | undefined }> {
  useTestCache();
  const out = testOutputDir(name);
  const store = new HistoryStore(out);
  const scenario = scenarioByCommand(ECHO_ISOLATED) as unknown as Scenario<EchoIsolatedRecord, EchoIsolatedConfig>;
  assert.ok(scenario.execute, 'the helper registered its scenario');
  const { outcome, entryId } = await executeRecorded(scenario, { command: ECHO_ISOLATED, out, ...config } as EchoIsolatedConfig, { signal: new AbortController().signal }, { store, source: 'cli' });
  return { record: outcome.record, cellsDone: (await store.get(entryId ?? -1))?.cellsDone };
}

test("a test helper's scenario, run with isolation on, measures its cells in a child process named by its registration", async () => {
  const { record, cellsDone } = await runEcho('scenario-isolated-run', { words: ['alpha', 'beta'], crashOn: null, isolate: true });
  assert.equal(record.state, 'completed');
  assert.equal(cellsDone, 2);
  assert.deepEqual(record.cells.map((c) => [c.word, c.echoed, c.state]), [['alpha', 'ALPHA', 'completed'], ['beta', 'BETA', 'completed']]);
  const pids = new Set(record.cells.map((c) => c.pid));
  assert.equal(pids.size, 1, 'one child ran the group');
  const [pid] = pids;
  assert.ok(pid !== undefined && pid > 0 && pid !== process.pid, `measured in another process (pid ${String(pid)}, this one ${process.pid})`);
});

test("a cell failing in the test scenario's child is recorded as failed with its reason, and the sweep goes on", async () => {
  const { record } = await runEcho('scenario-isolated-run-crash', { words: ['alpha', 'beta', 'gamma'], crashOn: 'beta', isolate: true });
  assert.equal(record.state, 'completed');
  assert.deepEqual(record.cells.map((c) => [c.word, c.state]), [['alpha', 'completed'], ['beta', 'failed'], ['gamma', 'failed']]);
  assert.equal(record.cells[1]?.reason, "echo-child was told to fail on 'beta'");
});

test('with isolation off the same scenario measures in this process (the control of the pid check)', async () => {
  const { record } = await runEcho('scenario-isolated-run-inline', { words: ['alpha'], crashOn: null, isolate: false });
  assert.deepEqual(record.cells.map((c) => [c.echoed, c.pid]), [['ALPHA', process.pid]]);
});

test('a childModule that is not a file: URL is refused when the scenario registers', () => {
  const base = scenarioByCommand(ECHO_ISOLATED);
  assert.throws(() => registerScenario({ ...base, command: 'echo-bad-module', recordKind: 'echo-bad-module', api: undefined, childModule: 'node:fs' } as Scenario), /scenario echo-bad-module's childModule must be a file: URL \(import\.meta\.url of the module\), not 'node:fs'/);
});
