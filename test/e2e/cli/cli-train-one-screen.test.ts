/**
 * Issue 47, item 1 for `train`: at COLUMNS=100 the report after the
 * progress lines is one screen (at most 45 lines) that opens with the
 * fastest training step per batch size; the engines that cannot train are
 * one line, and TRAIN – MEMORY and TRAIN – LOSS move behind `--details` and
 * `show ID --view NAME`. Item 7: `list` and `show` fit the width, `--wide`
 * keeps them whole.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { runCli } from '../../helpers/cli.js';
import { linesOver, oneScreen } from '../../helpers/one-screen.js';
import { testOutputDir } from '../../helpers/test-cache.js';


test('COLUMNS=100: train prints one screen opening with the fastest step per batch size; --details and show --view print the tables; list and show fit the width', async () => {
  const out = testOutputDir('train-one-screen');
  const r = await runCli(
    ['train', '--engines', 'onnx-cpu,tfjs-cpu,tfjs-wasm', '--batch-sizes', '2,4', '--steps', '2', '--warm-steps', '0', '--rounds', '2', '--no-isolate', '--no-png', '--out', out],
    { env: { COLUMNS: '100' } },
  );
  assert.equal(r.code, 0, r.stderr);

  const { answer } = oneScreen(r.stdout);
  assert.match(answer, /^Fastest training step per batch size/u, r.stdout);
  for (const b of [2, 4]) assert.match(answer, new RegExp(`^ {2}batch ${b}: (tfjs-cpu|tfjs-wasm) [\\d.]+ [µm]?s a step`, 'mu'), `batch ${b} is answered first:\n${answer}`);
  // onnx-cpu cannot train: one line, not a row per batch size.
  assert.match(r.stdout.replace(/\n/gu, ' '), /Not completed: 2 cells, skipped \([^)]*\): onnx-cpu; `inferbench show 1 --view reasons`/u);
  const reasons = await runCli(['show', '1', '--view', 'reasons', '--out', out]);
  assert.match(reasons.stdout.replace(/\n\s*/gu, ' '), /skipped \(onnx-cpu batch 2, onnx-cpu batch 4\): onnxruntime-node has no training API: onnxruntime-node 1\.\d+ exports only InferenceSession/u, 'the reason whole');
  for (const gone of ['TRAIN – MEMORY', 'TRAIN – LOSS', 'tfjs in step', 'first loss']) assert.ok(!r.stdout.includes(gone), `${gone} only with --details`);

  const details = await runCli(['show', '1', '--details', '--out', out]);
  assert.equal(details.code, 0, details.stderr);
  for (const title of ['TRAIN – SPEED', 'TRAIN – MEMORY', 'TRAIN – LOSS']) assert.ok(details.stdout.includes(title), `--details has ${title}`);
  const one = await runCli(['show', '1', '--view', 'loss', '--out', out]);
  assert.equal(one.code, 0, one.stderr);
  assert.match(one.stdout, /TRAIN – LOSS/u);
  assert.doesNotMatch(one.stdout, /TRAIN – SPEED|TRAIN – MEMORY/u);
  const bad = await runCli(['show', '1', '--view', 'nope', '--out', out]);
  assert.equal(bad.code, 2, bad.stderr);
  assert.match(bad.stderr, /--view must be one of summary, all, environment, method, speed, memory, loss, noise, reasons, got "nope"/u);

  // list and show fit COLUMNS as the report does; --wide keeps every line whole.
  for (const command of [['list'], ['show', '1', '--details']]) {
    const narrow = await runCli([...command, '--out', out], { env: { COLUMNS: '50' } });
    assert.equal(narrow.code, 0, narrow.stderr);
    assert.deepEqual(linesOver(narrow.stdout, 50), [], `${command[0]} at 50 columns`);
    const wide = await runCli([...command, '--out', out, '--wide'], { env: { COLUMNS: '50' } });
    assert.ok(wide.stdout.split('\n').some((l) => [...l].length > 50), `${command[0]} --wide is not cut`);
  }
});
