/**
 * Point 9 of issue 22: `compare` refuses a faster/slower call between cells
 * that streamed different rows (another --limit, dataset or calibration
 * skip), told by each cell's row fingerprint, or by the run configs for
 * records from before fingerprints, and says why per cell.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { CompletedCell, RunRecord } from '../../src/core/results.js';
import { compareRuns } from '../../reports/run-comparison.js';
import { renderRunComparison } from '../../src/scenarios/classify/compare-report.js';
import { buildSampleRun } from '../helpers/sample-run.js';
import { cellFromRounds, runOf } from '../helpers/round-cells.js';

const rounds = (meanMs: number) => [{ passes: 1, meanMs }, { passes: 1, meanMs: meanMs * 1.01 }, { passes: 1, meanMs: meanMs * 0.99 }];
const cell = (rows: number, meanMs: number): CompletedCell => cellFromRounds({ engine: 'onnx-cpu', batchSize: 8, rows, rounds: rounds(meanMs) });

test('cells whose rows differ get no call and say "different rows: A 256 rows …, B 64 rows …"; the same rows twice as slow are called slower', () => {
  const a = runOf([cell(256, 2)], { id: 'a' });
  const b = runOf([cell(64, 4)], { id: 'b' });
  const [c] = compareRuns(a, b).cells;
  assert.equal(c?.call, 'not compared');
  assert.equal(c?.ratio, null, 'no ratio either: it would compare different work');
  assert.match(c?.note ?? '', /^different rows: A 256 rows \(sha256 [0-9a-f]{8}\), B 64 rows \(sha256 [0-9a-f]{8}\)$/u);
  const text = renderRunComparison(compareRuns(a, b), { files: ['a', 'b'], details: true });
  assert.match(text, /not compared \(different rows: A 256 rows/u);
  assert.doesNotMatch(text.split('B is faster in')[0] ?? '', /\b(faster|slower) \(/u, 'no faster or slower call');

  // The control: the same rows, twice as slow, are called.
  assert.equal(compareRuns(a, runOf([cell(256, 4)], { id: 'b2' })).cells[0]?.call, 'slower');
});

test('records from before fingerprints are told apart by their run configs (--limit 64 against --limit 32)', () => {
  const old = (limit: number, id: string): RunRecord => {
    const run = buildSampleRun();
    return { ...run, id, config: { ...run.config, limit } };
  };
  const cmp = compareRuns(old(64, 'a'), old(32, 'b'));
  const completed = cmp.cells.filter((c) => c.a.state === 'completed' && c.b.state === 'completed');
  assert.ok(completed.length > 0);
  for (const c of completed) {
    assert.equal(c.call, 'not compared');
    assert.match(c.note ?? '', /^different rows: A --limit 64 of .+, B --limit 32 of /u);
  }
});
