import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import type { LoadRunRecord } from '../../../src/scenarios/load/load-results.js';
import { runCli } from '../../helpers/cli.js';
import { testOutputDir } from '../../helpers/test-cache.js';

/** The run folder a CLI run printed. */
function runDir(stdout: string): string {
  const match = /^Wrote to (\S+)\/: /m.exec(stdout);
  assert.ok(match, stdout);
  return match[1] as string;
}

test('load runs go through the history: list, show, rerun with the same arrivals, and compare (p99 ratio at equal rates)', async () => {
  const out = testOutputDir('load-history');
  const first = await runCli(['load', '--engines', 'onnx-cpu', '--rates', '30,60', '--duration', '0.2', '--warmup', '0.05', '--min-queries', '10', '--seed', '7', '--no-isolate', '--no-png', '--out', out]);
  assert.equal(first.code, 0, first.stderr);
  assert.match(first.stdout, /History: benchmark 1 /);

  const list = await runCli(['list', '--out', out]);
  assert.match(list.stdout, /onnx-cpu\s+completed\s+onnx-cpu/);
  const show = await runCli(['show', '1', '--out', out]);
  assert.equal(show.code, 0, show.stderr);
  assert.match(show.stdout, /command:\s+load/);
  assert.match(show.stdout, /rates:\s+30, 60 req\/s/);
  assert.match(show.stdout, /LATENCY UNDER LOAD/);

  const rerun = await runCli(['rerun', '1', '--out', out]);
  assert.equal(rerun.code, 0, rerun.stderr);
  const [a, b] = [runDir(first.stdout), runDir(rerun.stdout)].map((dir) => JSON.parse(readFileSync(join(dir, 'results.json'), 'utf8')) as LoadRunRecord);
  const probes = (run: LoadRunRecord | undefined) => (run?.cells[0]?.state === 'completed' ? run.cells[0].probes : []);
  assert.equal(probes(b).length, 2);
  for (const [i, probe] of probes(a).entries()) assert.deepEqual(probes(b)[i]?.samples.scheduledMs, probe.samples.scheduledMs, 'a rerun replays the same arrivals');

  const compare = await runCli(['compare', '1', '2', '--out', out]);
  assert.equal(compare.code, 0, compare.stderr);
  assert.match(compare.stdout, /p99 LATENCY AT EQUAL RATES/);
  assert.match(compare.stdout, /onnx-cpu\s+30\.0\s+\S+ \S*s\s+\S+ \S*s\s+\d+\.\d\d×/);
});
