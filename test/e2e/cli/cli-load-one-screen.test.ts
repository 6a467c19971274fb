/**
 * Issue 47, item 1 for `load`: at COLUMNS=100 the report after the progress
 * lines is one screen (at most 45 lines) that opens with each engine's peak
 * sustainable rate, its interval and the call; TIME PER REQUEST, the full
 * rate table and the method move behind `--details` and `show ID --view
 * NAME`, and an unknown view names the valid ones (exit 2). Item 7: the
 * comparison of two load runs fits the width, and `--wide` keeps it whole.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { runCli } from '../../helpers/cli.js';
import { linesOver, oneScreen } from '../../helpers/one-screen.js';
import { testOutputDir } from '../../helpers/test-cache.js';

const ENGINES = ['onnx-cpu', 'onnx-wasm', 'transformers-js'];

/** Lines wider than `width`, leaving out the written files' paths, which stay whole to be copied. */

test('COLUMNS=100: load prints one screen opening with each engine\'s peak; --details and show --view print the rest', async () => {
  const out = testOutputDir('load-one-screen');
  const r = await runCli(
    ['load', '--engines', ENGINES.join(','), '--rates', '20,40', '--find-peak', '--slo', 'p99=50ms', '--duration', '0.3', '--warmup', '0.1', '--min-queries', '10', '--no-isolate', '--no-png', '--out', out],
    { env: { COLUMNS: '100' } },
  );
  assert.equal(r.code, 0, r.stderr);

  // The header, a blank line, then the answer: every engine's peak before any table.
  const { answer } = oneScreen(r.stdout);
  assert.match(answer, /^Peak sustainable rate per engine \(req\/s; p99=50ms, VALID; last pass – first fail\):/u, r.stdout);
  for (const engine of ENGINES) assert.match(answer, new RegExp(`^ {2}${engine} +(\\d|none)`, 'mu'), `${engine}'s peak is answered first:\n${answer}`);
  assert.match(answer, /^ {2}\S+: (highest, [\d.]+× \S+: it passed [\d.]+k?, where \S+ failed from|not told apart from|the only one to pass)/mu, 'the call on the best engine');
  assert.match(r.stdout, /^Verdicts: /mu);
  assert.match(r.stdout.replace(/\n/gu, ' '), /Every table: --details; one: `inferbench show 1 --view NAME`, NAME one of environment, method, rates, time-per-request, peak, verdicts, reasons/u);
  for (const gone of ['TIME PER REQUEST', 'queue p99', 'p99.9', 'open loop:']) assert.ok(!r.stdout.includes(gone), `${gone} only with --details`);

  const details = await runCli(['show', '1', '--details', '--out', out]);
  assert.equal(details.code, 0, details.stderr);
  for (const title of ['LATENCY UNDER LOAD – per engine and offered rate', 'TIME PER REQUEST', 'PEAK RATE', 'queue p99', 'open loop:']) assert.ok(details.stdout.includes(title), `--details has ${title}`);
  const one = await runCli(['show', '1', '--view', 'time-per-request', '--out', out]);
  assert.equal(one.code, 0, one.stderr);
  assert.match(one.stdout, /TIME PER REQUEST/u);
  assert.doesNotMatch(one.stdout, /PEAK RATE|Peak sustainable rate/u);
  const bad = await runCli(['show', '1', '--view', 'nope', '--out', out]);
  assert.equal(bad.code, 2, bad.stderr);
  assert.match(bad.stderr, /--view must be one of summary, all, environment, method, rates, time-per-request, peak, verdicts, reasons, got "nope"/u);

  // compare fits the width as run's report does, and --wide keeps every column whole.
  const narrow = await runCli(['compare', '1', '1', '--out', out, '--no-png'], { env: { COLUMNS: '60' } });
  assert.equal(narrow.code, 0, narrow.stderr);
  assert.match(narrow.stdout.replace(/\n/gu, ' '), /^A \S+ against B \S+: peak rate B\/A: onnx-cpu 1\.00×/u);
  assert.deepEqual(linesOver(narrow.stdout, 60), [], 'compare at 60 columns');
  const wide = await runCli(['compare', '1', '1', '--out', out, '--no-png', '--wide'], { env: { COLUMNS: '60' } });
  assert.equal(wide.code, 0, wide.stderr);
  assert.ok(wide.stdout.split('\n').some((l) => [...l].length > 60), '--wide is not cut to COLUMNS');
});
