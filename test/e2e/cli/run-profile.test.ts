import assert from 'node:assert/strict';
import { test } from 'node:test';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli } from '../../helpers/cli.js';
import { HF_FIXTURES_DIR } from '../../helpers/hf-fixtures.js';

const ENGINES = ['onnx-cpu', 'onnx-wasm', 'tfjs-wasm', 'tfjs-cpu', 'tfjs-wasm-graph-model', 'transformers-js'];
const ARGS = ['--model', join(HF_FIXTURES_DIR, 'bert'), '--batch-sizes', '1,2', '--limit', '4', '--rounds', '1', '--min-time', '0', '--min-batches', '1', '--max-time', '10', '--reference', 'none', '--no-isolate', '--no-png'];

/** The one run folder under `out`, and its results.json. */
function runFolder(out: string): { dir: string; run: any } {
  const name = readdirSync(out).find((n) => /^\d{4}-/.test(n));
  assert.ok(name, `no run folder in ${out}`);
  const dir = join(out, name);
  return { dir, run: JSON.parse(readFileSync(join(dir, 'results.json'), 'utf8')) };
}

/** CSV rows as objects (profile.csv has no quoted commas in its numbers; a quoted op type is kept whole). */
function csvRows(text: string): Record<string, string>[] {
  const split = (line: string): string[] => line.match(/("([^"]|"")*"|[^,]*)(,|$)/g)?.slice(0, -1).map((f) => f.replace(/,$/, '').replace(/^"|"$/g, '').replace(/""/g, '"')) ?? [];
  const [header, ...lines] = text.trimEnd().split('\n');
  const names = split(header ?? '');
  return lines.map((l) => Object.fromEntries(split(l).map((v, i) => [names[i] ?? `c${i}`, v])));
}

test('run --profile writes profile.csv for every cell: the columns, shares summing to 1 per engine × batch size, kernel sum within the profiled engine time', async () => {
  const out = mkdtempSync(join(tmpdir(), 'inferbench-profile-'));
  try {
    const r = await runCli(['run', ...ARGS, '--engines', ENGINES.join(','), '--profile', '--out', out], { timeoutMs: 600_000 });
    assert.equal(r.code, 0, r.stderr);
    const { dir, run } = runFolder(out);
    const completed = run.cells.filter((c: any) => c.state === 'completed');
    assert.ok(completed.some((c: any) => c.engine === 'onnx-cpu'), 'onnx-cpu completed');
    for (const c of completed) assert.ok(c.profile, `${c.engine} batch ${c.batchSize} has its profile in results.json`);
    const rows = csvRows(readFileSync(join(dir, 'profile.csv'), 'utf8'));
    assert.deepEqual(Object.keys(rows[0] ?? {}), ['model', 'engine', 'batch_size', 'op_type', 'op_class', 'calls_per_batch', 'ms_per_batch', 'share', 'source']);
    for (const c of completed) {
      const mine = rows.filter((x) => x.engine === c.engine && Number(x.batch_size) === c.batchSize);
      assert.ok(mine.length > 0, `${c.engine} batch ${c.batchSize} has rows`);
      const shares = mine.reduce((a, x) => a + Number(x.share), 0);
      assert.ok(Math.abs(shares - 1) < 1e-6, `${c.engine} batch ${c.batchSize}: shares sum to ${shares}`);
      const kernels = mine.filter((x) => x.op_class !== 'outside kernels').reduce((a, x) => a + Number(x.ms_per_batch), 0);
      assert.ok(kernels <= c.profile.engineMsPerBatch + 1e-9, `${c.engine}: kernel sum ${kernels} within ${c.profile.engineMsPerBatch}`);
      assert.equal(mine.filter((x) => x.op_class === 'outside kernels').length, 1, 'one outside-kernels (or unattributed) row');
      assert.ok(mine.every((x) => x.source !== ''), 'every row names its source');
    }
    const sourceOf = (engine: string) => completed.find((c: any) => c.engine === engine)?.profile.source;
    assert.equal(sourceOf('onnx-cpu'), 'ort profiler');
    if (sourceOf('onnx-wasm')) assert.equal(sourceOf('onnx-wasm'), 'ort profiler');
    if (sourceOf('tfjs-cpu')) assert.equal(sourceOf('tfjs-cpu'), 'per-node wall (synced)');
    if (sourceOf('tfjs-wasm-graph-model')) assert.equal(sourceOf('tfjs-wasm-graph-model'), 'tf.profile kernels');
    if (sourceOf('transformers-js')) assert.equal(sourceOf('transformers-js'), 'ort profiler');
    assert.ok(existsSync(join(dir, 'profile.parquet')));
    assert.match(r.stdout, /WHERE THE TIME GOES/);
    assert.match(r.stdout, /profiled engine time/);
    assert.match(r.stdout, /timed mean/);
    assert.doesNotMatch(r.stdout, /"cat" ?: ?"Node"/, 'onnxruntime-web\'s trace is read, never printed');
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
});

test('the timed statistics have the same structure with and without --profile; without it no profile file is written', async () => {
  const outs = [mkdtempSync(join(tmpdir(), 'inferbench-profile-off-')), mkdtempSync(join(tmpdir(), 'inferbench-profile-on-'))];
  try {
    const [off, on] = await Promise.all(outs.map(async (out, i) => {
      const r = await runCli(['run', ...ARGS, '--engines', 'onnx-cpu', ...(i === 1 ? ['--profile'] : []), '--out', out]);
      assert.equal(r.code, 0, r.stderr);
      return runFolder(out);
    }));
    assert.ok(off && on);
    assert.equal(existsSync(join(off.dir, 'profile.csv')), false);
    for (const [a, b] of off.run.cells.map((c: any, i: number) => [c, on.run.cells[i]])) {
      const { profile, ...timed } = b;
      assert.ok(profile);
      assert.deepEqual(Object.keys(timed).sort(), Object.keys(a).sort());
      assert.deepEqual(Object.keys(b.latency).sort(), Object.keys(a.latency).sort());
      assert.equal(b.samples.runMs.length, a.samples.runMs.length, 'the same timed batches: the profiled pass adds none');
    }
  } finally {
    for (const out of outs) rmSync(out, { recursive: true, force: true });
  }
});
