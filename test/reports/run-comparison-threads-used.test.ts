import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { CellResult, RunRecord } from '../../src/core/results.js';
import { compareRuns } from '../../reports/run-comparison.js';
import { buildSweepRun } from '../helpers/sweep-run.js';

/** A default-threads run: nothing requested, and each engine read back the threads it used. */
function defaultRun(sweep: RunRecord, usedThreads: number): RunRecord {
  const cells: CellResult[] = sweep.cells
    .filter((c) => c.requestedThreads === usedThreads)
    .map((c) => (c.state === 'skipped' ? { ...c, requestedThreads: null } : { ...c, requestedThreads: null, session: { ...c.session!, threads: usedThreads } }));
  return { ...sweep, id: 'default-run', cells };
}

test('cells match on the threads actually used, not the threads requested', () => {
  // `--threads 1,2,4` against a default run that used 2 threads: the 2-thread cells are common.
  const sweep = buildSweepRun({ rounds: 3 });
  const plain = defaultRun(buildSweepRun({ id: 'b', rounds: 3, seedOffset: 5 }), 2);
  const cmp = compareRuns(sweep, plain);
  const completedInBoth = cmp.cells.filter((c) => c.a.state === 'completed' && c.b.state === 'completed');
  assert.deepEqual(
    completedInBoth.map((c) => `${c.engine}/${c.batchSize}`).sort(),
    ['onnx-cpu/1', 'onnx-cpu/32', 'onnx-cpu/8', 'onnx-wasm/1', 'onnx-wasm/32', 'onnx-wasm/8'],
  );
  for (const c of completedInBoth) {
    assert.equal(c.threads, 2);
    assert.equal(c.requestedThreads, 2, "A's request");
    assert.equal(c.b.requestedThreads, null, "B's request was the default");
    assert.match(c.label, / · 2 threads · batch /u);
  }
  // The 1- and 4-thread cells have no partner.
  assert.ok(cmp.onlyInA.some((c) => c.requestedThreads === 1) && cmp.onlyInA.some((c) => c.requestedThreads === 4));
  assert.ok(!cmp.onlyInA.some((c) => c.state === 'completed' && c.session.threads === 2));
  // Requested 4 but the engine used 2: it matches the default run's 2-thread cell, not a "4 threads" one.
  const capped: RunRecord = {
    ...sweep,
    cells: sweep.cells
      .filter((c) => c.requestedThreads === 4 && c.state === 'completed' && c.engine === 'onnx-cpu')
      .map((c) => (c.state === 'completed' ? { ...c, session: { ...c.session, threads: 2 } } : c)),
  };
  assert.equal(compareRuns(capped, plain).cells.filter((c) => c.engine === 'onnx-cpu').length, 3);
});
