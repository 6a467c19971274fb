/**
 * Dev-only: every fixture's exported SavedModel loads in Python TensorFlow
 * (`tf.saved_model.load`, tools/check-saved-model.py) and gives onnx-cpu's
 * outputs within 1e-4. Needs a Python with tensorflow-cpu: INFERBENCH_PYTHON,
 * else the repository's git-ignored .venv; skips, saying why, without one.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { packageRoot } from '../../../src/core/package-info.js';
import type { HostTensor, TensorMap } from '../../../src/core/tensor.js';
import { hfFixtureArchs, readHfFixture } from '../../helpers/hf-fixtures.js';
import { exported, onnxCpuOutputs } from '../../helpers/native-exports.js';
import { testOutputDir } from '../../helpers/test-cache.js';

const TOLERANCE = 1e-4;
const VENV_PYTHON = join(packageRoot(), '.venv', 'bin', 'python');
const PYTHON = process.env['INFERBENCH_PYTHON'] ?? (existsSync(VENV_PYTHON) ? VENV_PYTHON : 'python3');

function pythonSkip(): string | false {
  const r = spawnSync(PYTHON, ['-c', 'import tensorflow'], { encoding: 'utf8', timeout: 180_000, env: { ...process.env, TF_CPP_MIN_LOG_LEVEL: '3' } });
  if (r.status === 0) return false;
  const why = r.error ? r.error.message : (r.stderr.trim().split('\n').pop() ?? `exit ${r.status}`);
  return `${PYTHON} cannot import tensorflow (${why}); set INFERBENCH_PYTHON to a Python with tensorflow-cpu, e.g. python3 -m venv .venv && .venv/bin/pip install --index-url file:///opt/pypi/simple tensorflow-cpu`;
}

function json(t: HostTensor): { dtype: string; dims: number[]; data: number[] } {
  return { dtype: t.dtype, dims: [...t.dims], data: Array.from(t.data as ArrayLike<number | bigint>, Number) };
}

function jsonMap(m: TensorMap): Record<string, ReturnType<typeof json>> {
  return Object.fromEntries(Object.entries(m).map(([k, v]) => [k, json(v)]));
}

test(`Python TensorFlow loads every fixture's exported SavedModel (tf.saved_model.load) and gives onnx-cpu's outputs within ${TOLERANCE}`, { skip: pythonSkip(), timeout: 600_000 }, async (t) => {
  const dir = testOutputDir('python-saved-model');
  const cases: string[] = [];
  for (const arch of hfFixtureArchs()) {
    const fixture = readHfFixture(arch);
    const saved = await exported(fixture.onnxPath, 'saved-model');
    const outputs = await onnxCpuOutputs(fixture.onnxPath, fixture.feeds);
    const file = join(dir, `${arch}.json`);
    writeFileSync(file, JSON.stringify({ dir: saved.dir, inputs: jsonMap(fixture.feeds), outputs: jsonMap(outputs) }));
    cases.push(file);
  }
  const r = spawnSync(PYTHON, [join(packageRoot(), 'tools', 'check-saved-model.py'), ...cases], { encoding: 'utf8', timeout: 540_000, maxBuffer: 16 * 1024 * 1024 });
  assert.equal(r.status, 0, r.stderr);
  const results = r.stdout.trim().split('\n').filter((l) => l.startsWith('{')).map((l) => JSON.parse(l) as { dir: string; error?: string; maxAbsDiff?: Record<string, number>; signature?: { inputs: Record<string, string> } });
  assert.equal(results.length, cases.length, r.stdout);
  hfFixtureArchs().forEach((arch, i) => {
    const result = results[i];
    assert.ok(result && !result.error, `${arch}: ${result?.error}`);
    const diffs = Object.entries(result.maxAbsDiff ?? {});
    assert.ok(diffs.length > 0, `${arch}: no outputs compared`);
    for (const [name, d] of diffs) assert.ok(d <= TOLERANCE, `${arch} ${name}: max |diff| from onnx-cpu in Python TensorFlow is ${d}`);
    // tfjs has no int64: ids are fed as int32 and widened inside the graph.
    assert.equal(result.signature?.inputs['input_ids'], 'int32', `${arch}: input_ids dtype in the signature`);
    t.diagnostic(`${arch}: ${diffs.map(([n, d]) => `${n} ${d.toExponential(2)}`).join(', ')}`);
  });
});
