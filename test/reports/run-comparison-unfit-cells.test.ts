import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { CompletedCell, RunRecord } from '../../src/core/results.js';
import { compareRuns, roundMeansOf } from '../../reports/run-comparison.js';
import { buildSweepRun } from '../helpers/sweep-run.js';

test('a run recorded before rounds existed counts as one round, which never supports a call', () => {
  // 1.6× faster with tight per-batch samples: the old per-batch intervals called this; one round cannot.
  const a = buildSweepRun();
  const b = buildSweepRun({ id: 'run-b', seedOffset: 7, slowdown: () => 0.62 });
  const first = a.cells.find((c) => c.state === 'completed');
  assert.ok(first?.state === 'completed');
  assert.deepEqual(roundMeansOf(first), [first.latency.mean]);
  const cmp = compareRuns(a, b);
  const compared = cmp.cells.filter((c) => c.call !== 'not compared');
  assert.ok(compared.length > 10);
  for (const c of compared) {
    assert.equal(c.call, 'inconclusive', c.label);
    assert.equal(c.note, 'one round in A and B: no between-round evidence; more rounds would tell (--rounds 3)');
    assert.deepEqual([c.roundsA, c.roundsB, c.p, c.ratioCi], [1, 1, null, null]);
    assert.ok(c.ratio !== null && Math.abs(c.ratio - 0.62) < 0.01, 'the ratio is still shown');
  }
  // One side with rounds is not enough either; the note names the side that lacks them.
  const mixed = compareRuns(buildSweepRun({ rounds: 5 }), b).cells.find((c) => c.call !== 'not compared');
  assert.equal(mixed?.note, 'one round in B: no between-round evidence; more rounds would tell (--rounds 3)');
});

test('a cell cut short by Ctrl-C, or with a round that timed only part of a pass, is not compared', () => {
  const a = buildSweepRun({ rounds: 3 });
  const b = buildSweepRun({ id: 'run-b', rounds: 3, seedOffset: 7, slowdown: () => 0.5 });
  const target = (c: { engine: string; batchSize: number; requestedThreads: number | null }): boolean => c.engine === 'onnx-cpu' && c.batchSize === 8 && c.requestedThreads === 1;
  const edit = (run: RunRecord, f: (c: CompletedCell) => CompletedCell): RunRecord => ({
    ...run,
    cells: run.cells.map((c) => (c.state === 'completed' && target(c) ? f(c) : c)),
  });
  const interrupted = compareRuns(edit(a, (c) => ({ ...c, interrupted: true })), b).cells.find(target);
  assert.deepEqual([interrupted?.call, interrupted?.note], ['not compared', 'interrupted in A']);
  const partial = compareRuns(a, edit(b, (c) => ({ ...c, rounds: c.rounds?.map((r, i) => (i === 1 ? { ...r, passes: 0 } : r)) }))).cells.find(target);
  assert.deepEqual([partial?.call, partial?.note], ['not compared', 'part of a pass in B: not the same rows']);
  // Its neighbours are still called.
  assert.equal(compareRuns(a, b).cells.find(target)?.call, 'faster');
});
