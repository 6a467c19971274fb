/**
 * Issue 34's Done-when, through the CLI: `COLUMNS=100 inferbench run
 * --engines onnx-cpu,onnx-wasm,transformers-js` prints no line over 100
 * characters and opens with the fastest engine per batch size; `--wide`
 * prints every column. The renderer's own tests (report-fits-terminal) use
 * built records; this one pins what the command itself prints.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { runCli } from '../../helpers/cli.js';
import { testOutputDir } from '../../helpers/test-cache.js';

const ENGINES = ['onnx-cpu', 'onnx-wasm', 'transformers-js'];
const BATCHES = [1, 2];

test('COLUMNS=100: no line of the run report is over 100 characters, the answer comes first, and --wide shows every column', async () => {
  const out = join(testOutputDir('cli-report-width'), 'out');
  // --max-time 120: one pass stops each round (0 s, 1 batch), so it adds no work; a short one (4 s, 2 s a round) could cut
  // a round short on a loaded machine, and a cell without a whole pass is not ranked in the answer asserted below.
  const args = ['--engines', ENGINES.join(','), '--batch-sizes', BATCHES.join(','), '--limit', '8', '--min-time', '0', '--min-batches', '1', '--max-time', '120'];
  const r = await runCli(['run', ...args, '--rounds', '2', '--no-png', '--no-isolate', '--out', out], { env: { COLUMNS: '100' } });
  assert.equal(r.code, 0, r.stderr);
  const lines = r.stdout.split('\n');
  // The written files' paths (and the history line's --out) stay whole so they can be copied; this test's --out is deep.
  const over = lines.filter((l) => [...l].length > 100 && !/^ {2}\/\S+$/u.test(l) && !l.startsWith('History: ') && !l.startsWith('Wrote to /'));
  assert.deepEqual(over, [], 'lines over 100 characters');

  // After the header (the run line and the machine lines, then a blank line), the first lines name the fastest engine per batch size.
  const blank = lines.indexOf('');
  const firstTable = lines.findIndex((l) => l.includes('====='));
  assert.ok(blank > 0 && firstTable > blank, r.stdout);
  const answer = lines.slice(blank + 1, firstTable).join('\n');
  assert.match(answer, /^Fastest engine per batch size/u, r.stdout);
  for (const b of BATCHES) {
    assert.match(answer, new RegExp(`^  batch ${b}: (${ENGINES.join('|')}) \\(`, 'mu'), `batch ${b} is answered before any table:\n${answer}`);
  }

  // One screen (issue 47): the report, the files written and the history line in at most 45 lines.
  assert.ok(r.stdout.trimEnd().split('\n').length <= 45, `${r.stdout.trimEnd().split('\n').length} lines:\n${r.stdout}`);

  // --wide on the same run: every column, nothing dropped, so lines run past 100 characters.
  const wide = await runCli(['show', '1', '--wide', '--details', '--out', out], { env: { COLUMNS: '100' } });
  assert.equal(wide.code, 0, wide.stderr);
  assert.doesNotMatch(wide.stdout, /To fit \d+ columns/u);
  const speedHeader = wide.stdout.split('\n').find((l) => /\bengine\b.*\bp50\b.*\bp99\b/u.test(l)) ?? '';
  for (const column of ['backend', 'prec', 'p50', 'p99']) assert.ok(speedHeader.includes(column), `--wide prints ${column}: ${speedHeader}`);
  assert.ok(wide.stdout.split('\n').some((l) => [...l].length > 100), '--wide is not cut to COLUMNS');
});
