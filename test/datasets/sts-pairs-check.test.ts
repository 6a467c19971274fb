import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Dataset, type DataRow } from '../../datasets/dataset.js';
import { resolveColumns } from '../../datasets/columns.js';
import { badPairsError, checkPairs, pairProblem, skippedPairsNote, validPairs } from '../../datasets/sts-pairs.js';
import { spearman, StsTally, stsFigure } from '../../src/core/sts-score.js';
import { stsText } from '../../src/scenarios/classify/sts-table.js';

const COLS = { text: 'sentence1', second: 'sentence2', score: 'score' };

test('a pair with a missing, non-numeric or non-finite score, or an empty or non-string sentence, is named with its field; numeric strings pass', () => {
  const ok = { sentence1: 'a', sentence2: 'b' };
  assert.equal(pairProblem({ ...ok, score: 3 }, COLS), null);
  assert.equal(pairProblem({ ...ok, score: '3.5' }, COLS), null);
  assert.deepEqual(pairProblem(ok, COLS), { field: 'score', why: 'missing' });
  assert.deepEqual(pairProblem({ ...ok, score: 'high' }, COLS), { field: 'score', why: 'not a number ("high")' });
  assert.deepEqual(pairProblem({ ...ok, score: 'Infinity' }, COLS), { field: 'score', why: 'not finite (Infinity)' });
  assert.deepEqual(pairProblem({ ...ok, score: NaN }, COLS), { field: 'score', why: 'not finite (NaN)' });
  assert.deepEqual(pairProblem({ ...ok, score: true }, COLS)?.field, 'score');
  assert.deepEqual(pairProblem({ sentence1: '  ', sentence2: 'b', score: 1 }, COLS), { field: 'sentence1', why: 'empty' });
  assert.deepEqual(pairProblem({ sentence1: 'a', sentence2: 7, score: 1 }, COLS), { field: 'sentence2', why: 'not a string (7)' });
});

test('checkPairs counts every bad row of the streamed rows, the refusal and the note name the first ones, validPairs keeps the rest', async () => {
  const rows: DataRow[] = [
    { sentence1: 'a', sentence2: 'b', score: 1 },
    { sentence1: 'a', sentence2: 'b' },
    { sentence1: '', sentence2: 'b', score: 2 },
    { sentence1: 'c', sentence2: 'd', score: 3 },
  ];
  const ds = new Dataset('pairs', async function* () { yield* rows; }, async () => ['sentence1', 'sentence2', 'score']);
  const columns = resolveColumns(['sentence1', 'sentence2', 'score']);
  const check = await checkPairs(ds, columns);
  assert.deepEqual(check, { rows: 4, bad: 2, first: [{ row: 1, field: 'score', why: 'missing' }, { row: 2, field: 'sentence1', why: 'empty' }] });
  assert.match(badPairsError(check!).message, /2 of 4 STS pairs cannot be scored: row 1 score missing; row 2 sentence1 empty/);
  assert.match(badPairsError(check!).fix ?? '', /--skip-bad-rows/);
  assert.match(skippedPairsNote(check!), /--skip-bad-rows: 2 of 4 STS pairs left out/);
  const kept: DataRow[] = [];
  for await (const r of validPairs(ds, columns)) kept.push(r);
  assert.deepEqual(kept.map((r) => r['score']), [1, 3]);
  assert.equal(await checkPairs(ds, resolveColumns(['text'])), null);
});

test('Spearman is n/a with its reason under 3 pairs or with constant scores or cosines, never NaN, and the table shows it', () => {
  assert.deepEqual(stsFigure([0.1, 0.2], [1, 2]), { spearman: null, pairs: 2, why: '2 pairs, fewer than 3' });
  assert.deepEqual(stsFigure([0.1, 0.2, 0.3], [2, 2, 2]), { spearman: null, pairs: 3, why: 'every gold score is 2' });
  assert.deepEqual(stsFigure([0.5, 0.5, 0.5], [1, 2, 3]), { spearman: null, pairs: 3, why: 'every pair has the same cosine' });
  assert.equal(stsFigure([0.1, 0.2, 0.3], [1, 2, 3]).spearman, spearman([0.1, 0.2, 0.3], [1, 2, 3]));
  // A tally that saw no pair still has a figure, so the STS table never silently disappears.
  assert.deepEqual(new StsTally('score').figure(), { spearman: null, pairs: 0, why: '0 pairs, fewer than 3' });
  assert.equal(stsText({ spearman: null, pairs: 2, why: '2 pairs, fewer than 3' }), 'n/a: 2 pairs, fewer than 3');
  // A record written before: NaN stored as null by JSON.
  assert.equal(stsText({ spearman: null as unknown as number, pairs: 2 }), 'n/a: not defined for these pairs');
  assert.equal(stsText({ spearman: 0.51234, pairs: 9 }), '0.5123');
});
