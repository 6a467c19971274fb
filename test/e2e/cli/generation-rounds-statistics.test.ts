import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { runCli } from '../../helpers/cli.js';
import { testOutputDir } from '../../helpers/test-cache.js';
import { betweenRoundsOf } from '../../../src/core/statistics.js';
import type { CompletedGenerationCell, GenerationRunRecord } from '../../../src/scenarios/generate/generation-results.js';
import { generationChartSpec } from '../../../src/scenarios/generate/generation-files.js';

/** The one run folder a CLI run wrote under `out`. */
function runFolder(out: string): string {
  const dirs = readdirSync(out, { withFileTypes: true }).filter((d) => d.isDirectory());
  assert.equal(dirs.length, 1, `one run folder in ${out}`);
  return join(out, (dirs[0] as { name: string }).name);
}

test('generate measures each cell in rounds: round means of TTFT and TPOT, the shared 95% interval across them, and a verdict, in every output', async () => {
  const out = testOutputDir('generation-rounds');
  const r = await runCli(['generate', '--engines', 'onnx-cpu', '--batch-sizes', '1', '--prompt-lengths', '4', '--new-tokens', '3', '--runs', '2', '--rounds', '2', '--warmup', '0', '--no-isolate', '--details', '--out', out]);
  assert.equal(r.code, 0, r.stderr);
  const dir = runFolder(out);
  const run = JSON.parse(readFileSync(join(dir, 'results.json'), 'utf8')) as GenerationRunRecord;
  const cell = run.cells[0] as CompletedGenerationCell;
  assert.equal(cell.state, 'completed');
  // 2 rounds × 2 calls, each call stamped with its round.
  assert.deepEqual(cell.samples.map((s) => s.round), [0, 0, 1, 1]);
  const rounds = cell.betweenRounds;
  assert.ok(rounds, 'betweenRounds recorded');
  const ttftMeans = [0, 1].map((k) => {
    const calls = cell.samples.filter((s) => s.round === k);
    return calls.reduce((a, s) => a + s.firstTokenMs, 0) / calls.length;
  });
  const tpotMeans = [0, 1].map((k) => {
    const tokens = cell.samples.filter((s) => s.round === k).flatMap((s) => s.restTokenMs);
    return tokens.reduce((a, t) => a + t, 0) / tokens.length;
  });
  // The interval is the statistics module's, the very function run's cells use.
  assert.deepEqual(rounds.ttft, betweenRoundsOf(ttftMeans));
  assert.deepEqual(rounds.tpot, betweenRoundsOf(tpotMeans));
  assert.ok(rounds.ttft.ci95 && rounds.tpot?.ci95, 'two rounds give an interval');
  assert.match(cell.verdict?.status ?? '', /^(VALID|NOISY)$/);
  // Host noise read around each round's timed calls, as run's rounds have it.
  assert.deepEqual(cell.hostNoise?.map((n) => n.round), [0, 1]);

  // Terminal: the interval, the rounds and the verdict in both latency tables.
  const ttftTable = r.stdout.split('TIME TO FIRST TOKEN')[1]?.split('TIME PER OUTPUT TOKEN')[0] ?? '';
  assert.match(ttftTable, /95% CI across rounds\s+rounds\s+p50\s+p90\s+p99\s+n\s+verdict/);
  assert.match(ttftTable, /onnx-cpu .* [\d.]+ (µs |ms |s )?– [\d.]+ (µs|ms|s)\s+2\s.*\s(VALID|NOISY)/);
  assert.match(r.stdout, /95% CI\s+across rounds = interval of the mean of round means/);
  assert.match(r.stderr, /\[1\/1\] onnx-cpu batch 1 prompt 4 new 3: TTFT .*, TPOT .*, (VALID|NOISY)/);

  // CSV: the same figures, at full precision.
  const [header, row] = readFileSync(join(dir, 'results.csv'), 'utf8').trim().split('\r\n').map((l) => l.split(','));
  const field = (name: string) => row?.[header?.indexOf(name) ?? -1];
  assert.equal(field('rounds'), '2');
  assert.equal(Number(field('ttft_ci95_low_ms')), rounds.ttft.ci95?.low);
  assert.equal(Number(field('tpot_ci95_high_ms')), rounds.tpot?.ci95?.high);
  assert.equal(field('verdict'), cell.verdict?.status);

  // ttft.png / tpot.png: the interval as an error bar on the bars' data.
  for (const metric of ['ttft', 'tpot'] as const) {
    const spec = generationChartSpec(run, metric) as unknown as { data: { values: { low?: number; high?: number }[] }; layer: { mark: { type: string } }[] };
    const ci: { low: number; high: number } | null | undefined = metric === 'ttft' ? rounds.ttft.ci95 : rounds.tpot?.ci95;
    assert.deepEqual(spec.data.values.map((v) => [v.low, v.high]), [[ci?.low, ci?.high]]);
    assert.ok(spec.layer.some((l) => l.mark.type === 'errorbar'), `${metric} chart draws an error bar`);
  }
});

test('a single round gets run\'s verdict: NOISY, because one round has no interval', async () => {
  const out = testOutputDir('generation-one-round');
  const r = await runCli(['generate', '--engines', 'onnx-cpu', '--batch-sizes', '1', '--prompt-lengths', '4', '--new-tokens', '2', '--runs', '2', '--rounds', '1', '--warmup', '0', '--no-isolate', '--no-png', '--details', '--out', out]);
  assert.equal(r.code, 0, r.stderr);
  const run = JSON.parse(readFileSync(join(runFolder(out), 'results.json'), 'utf8')) as GenerationRunRecord;
  const cell = run.cells[0] as CompletedGenerationCell;
  assert.equal(cell.verdict?.status, 'NOISY');
  // The reason is run's own sentence, given once for both figures.
  assert.equal(cell.verdict?.reasons.filter((x) => x === '1 round: no interval across rounds (use --rounds 2 or more)').length, 1);
  assert.match(r.stdout, /NOISY onnx-cpu batch 1 prompt 4 new 2: .*1 round: no interval across rounds/);
});
