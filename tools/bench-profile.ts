/**
 * `npm run bench:profile`: does onnx-cpu's `run --profile` agree with
 * Python onnxruntime's own profiler? The `--config minilm` graph (hidden 384,
 * 6 layers) at batch BENCH_BATCH (default 8) × sequence BENCH_SEQ (default
 * 128), on inputs both sides build by one formula and the session options
 * onnx-cpu uses: inferbench's instrument (engines/onnx/ort-profile.ts, a
 * warm pass then BENCH_RUNS profiled calls) against
 * tools/ort-profile-reference.py (the same in Python). Each side's share by
 * op type is of its own kernel sum (the engine time around the calls is
 * measured differently on each side, so it is left out). Passes when the
 * same op type is on top and its share is within 15 percentage points.
 * Needs a Python with onnxruntime and numpy: BENCH_PYTHON (default
 * /tmp/ortvenv/bin/python; `python3 -m venv /tmp/ortvenv &&
 * /tmp/ortvenv/bin/pip install onnxruntime numpy`).
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { BUILTIN_ENGINE_FACTORIES } from '../engines/registry.js';
import { EngineRegistry } from '../src/core/engine-registry.js';
import { summarizeProfile } from '../src/core/op-profile.js';
import { runTimed } from '../src/core/engine-session.js';
import { hostTensor, type TensorMap } from '../src/core/tensor.js';
import { ARCHITECTURE_PRESETS } from '../src/models/generated/arch-presets.js';
import { buildBertOnnx } from '../src/models/generated/bert-graph.js';

const BATCH = Number(process.env['BENCH_BATCH'] ?? 8);
const SEQ = Number(process.env['BENCH_SEQ'] ?? 128);
const RUNS = Number(process.env['BENCH_RUNS'] ?? 10);
const THREADS = Number(process.env['BENCH_THREADS'] ?? 1);
const PYTHON = process.env['BENCH_PYTHON'] ?? '/tmp/ortvenv/bin/python';

/** The inputs ort-profile-reference.py builds by the same formula. */
function feeds(): TensorMap {
  const n = BATCH * SEQ;
  const ids = BigInt64Array.from({ length: n }, (_, i) => BigInt(((i * 7919) % 1000) + 1000));
  return {
    input_ids: hostTensor('int64', [BATCH, SEQ], ids),
    attention_mask: hostTensor('int64', [BATCH, SEQ], new BigInt64Array(n).fill(1n)),
    token_type_ids: hostTensor('int64', [BATCH, SEQ], new BigInt64Array(n)),
  };
}

/** Shares of the kernel sum by op type. */
function shares(totals: ReadonlyMap<string, number>): Map<string, number> {
  const sum = [...totals.values()].reduce((a, b) => a + b, 0);
  return new Map([...totals].map(([op, us]) => [op, us / sum]).sort((a, b) => (b[1] as number) - (a[1] as number)) as [string, number][]);
}

async function inferbenchSide(onnxPath: string): Promise<Map<string, number>> {
  const engine = await new EngineRegistry(BUILTIN_ENGINE_FACTORIES).require('onnx-cpu');
  const session = await engine.open(onnxPath, { threads: THREADS, precision: 'fp32' });
  const profiler = await (session.profiler as NonNullable<typeof session.profiler>)();
  const inputs = feeds();
  for (let i = 0; i < RUNS; i++) await runTimed(profiler.session, inputs);
  const batches = [];
  for (let i = 0; i < RUNS; i++) {
    const t = await runTimed(profiler.session, inputs);
    batches.push({ engineMs: t.endedAt - t.startedAt, items: BATCH });
  }
  const profile = summarizeProfile(await profiler.finish(RUNS), batches);
  await profiler.dispose();
  await session.dispose();
  console.log(`inferbench: profiled engine time ${profile.engineMsPerBatch.toFixed(1)} ms per batch, kernels ${profile.kernelMsPerBatch.toFixed(1)} ms (${profile.source})`);
  return shares(new Map(profile.ops.map((o) => [o.opType, o.msPerBatch])));
}

function pythonSide(onnxPath: string): Map<string, number> {
  const script = fileURLToPath(new URL('../../tools/ort-profile-reference.py', import.meta.url));
  const r = spawnSync(PYTHON, [script, onnxPath, String(BATCH), String(SEQ), String(THREADS), String(RUNS)], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`${PYTHON} ${script} failed (${r.error?.message ?? r.stderr.trim().split('\n').at(-1)}); make the venv: python3 -m venv /tmp/ortvenv && /tmp/ortvenv/bin/pip install onnxruntime numpy`);
  const out = JSON.parse(r.stdout) as { onnxruntime: string; totals: Record<string, number> };
  console.log(`python onnxruntime ${out.onnxruntime}: its own profiler`);
  return shares(new Map(Object.entries(out.totals)));
}

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'inferbench-bench-profile-'));
  try {
    const onnxPath = join(dir, 'model.onnx');
    writeFileSync(onnxPath, buildBertOnnx((ARCHITECTURE_PRESETS['minilm'] as NonNullable<(typeof ARCHITECTURE_PRESETS)['minilm']>).config));
    console.log(`minilm (hidden 384, 6 layers) batch ${BATCH} × sequence ${SEQ}, ${THREADS} thread(s), ${RUNS} profiled runs after ${RUNS} warm; load average ${loadavg()[0]?.toFixed(2)}`);
    const ours = await inferbenchSide(onnxPath);
    const theirs = pythonSide(onnxPath);
    const ops = [...new Set([...ours.keys(), ...theirs.keys()])].sort((a, b) => (theirs.get(b) ?? 0) - (theirs.get(a) ?? 0));
    console.log('op type                   inferbench   python   diff (pp)');
    for (const op of ops) {
      const a = (ours.get(op) ?? 0) * 100;
      const b = (theirs.get(op) ?? 0) * 100;
      console.log(`${op.padEnd(24)} ${a.toFixed(1).padStart(10)}% ${b.toFixed(1).padStart(7)}% ${(a - b).toFixed(1).padStart(10)}`);
    }
    const topOurs = [...ours.keys()][0];
    const topTheirs = [...theirs.keys()][0];
    const diff = Math.abs((ours.get(topTheirs ?? '') ?? 0) - (theirs.get(topTheirs ?? '') ?? 0)) * 100;
    const pass = topOurs === topTheirs && diff <= 15;
    console.log(`top op type: inferbench ${topOurs}, python ${topTheirs}; its share differs by ${diff.toFixed(1)} pp: ${pass ? 'PASS' : 'FAIL'} (same top op type, within 15 pp)`);
    if (!pass) process.exitCode = 1;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
