/**
 * Issue 47, item 1 for `generate`: at COLUMNS=100 the report after the
 * progress lines is one screen (at most 45 lines) that opens with the
 * fastest engine per configuration (TTFT, TPOT and decode tokens/s); the
 * TTFT, TPOT and throughput tables move behind `--details` and `show ID
 * --view NAME`. Item 7: the comparison of two generate runs fits the width.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { runCli } from '../../helpers/cli.js';
import { linesOver, oneScreen } from '../../helpers/one-screen.js';
import { testOutputDir } from '../../helpers/test-cache.js';

const ENGINES = ['onnx-cpu', 'onnx-wasm', 'tfjs-wasm'];


test('COLUMNS=100: generate prints one screen opening with the fastest engine per configuration; --details and show --view print the tables', async () => {
  const out = testOutputDir('generate-one-screen');
  const r = await runCli(
    ['generate', '--engines', ENGINES.join(','), '--batch-sizes', '1,2', '--prompt-lengths', '8,16', '--new-tokens', '4', '--runs', '2', '--rounds', '2', '--warmup', '0', '--no-isolate', '--no-png', '--out', out],
    { env: { COLUMNS: '100' } },
  );
  assert.equal(r.code, 0, r.stderr);

  const { answer } = oneScreen(r.stdout);
  assert.match(answer, /^Fastest engine per configuration/u, r.stdout);
  for (const where of ['batch 1, p8', 'batch 1, p16', 'batch 2, p8', 'batch 2, p16']) {
    // The engine with the lowest TTFT and the one with the lowest TPOT, named once when they are one.
    assert.match(answer, new RegExp(`^ {2}${where}: (TTFT (${ENGINES.join('|')}) [\\d.]+ [µm]?s \\([\\d.]+×\\??\\); TPOT |(${ENGINES.join('|')}): TTFT [\\d.]+ [µm]?s \\([\\d.]+×\\??\\), TPOT )`, 'mu'), `${where} is answered first:\n${answer}`);
  }
  assert.match(answer, /TPOT (onnx-cpu |onnx-wasm |tfjs-wasm )?[\d.]+ [µm]?s \([\d.]+×\??\)/u);
  assert.match(answer, /[\d.]+k? tok\/s/u, 'the highest decode tokens/s');
  for (const gone of ['TIME TO FIRST TOKEN', 'TIME PER OUTPUT TOKEN', 'THROUGHPUT AND PEAK MEMORY', 'peak RSS']) assert.ok(!r.stdout.includes(gone), `${gone} only with --details`);
  assert.match(r.stdout.replace(/\n/gu, ' '), /Every table: --details; one: `inferbench show 1 --view NAME`, NAME one of environment, method, ttft, tpot, throughput, noise, reasons/u);

  const details = await runCli(['show', '1', '--details', '--out', out]);
  assert.equal(details.code, 0, details.stderr);
  for (const title of ['TIME TO FIRST TOKEN', 'TIME PER OUTPUT TOKEN', 'THROUGHPUT AND PEAK MEMORY', 'TTFT = time to first token']) assert.ok(details.stdout.includes(title), `--details has ${title}`);
  const one = await runCli(['show', '1', '--view', 'tpot', '--out', out]);
  assert.equal(one.code, 0, one.stderr);
  assert.match(one.stdout, /TIME PER OUTPUT TOKEN/u);
  assert.doesNotMatch(one.stdout, /TIME TO FIRST TOKEN|Fastest engine/u);
  const bad = await runCli(['show', '1', '--view', 'speed', '--out', out]);
  assert.equal(bad.code, 2, bad.stderr);
  assert.match(bad.stderr, /--view must be one of summary, all, environment, method, ttft, tpot, throughput, noise, reasons, got "speed"/u);

  const narrow = await runCli(['compare', '1', '1', '--out', out, '--no-png'], { env: { COLUMNS: '60' } });
  assert.equal(narrow.code, 0, narrow.stderr);
  assert.match(narrow.stdout.replace(/\n/gu, ' '), /^A \S+ against B \S+, 12 cells in common: TTFT B\/A 1\.00×, TPOT B\/A 1\.00×/u);
  assert.deepEqual(linesOver(narrow.stdout, 60), [], 'compare at 60 columns');
});
