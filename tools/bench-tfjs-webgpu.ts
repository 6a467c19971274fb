/**
 * `npm run bench:tfjs-webgpu`: what one forward costs tfjs-webgpu (the
 * translator on tfjs-backend-webgpu over Dawn), as counts (read-backs,
 * uploads and their bytes, dispatches, pipelines compiled, live tensors and
 * bytes above resting; test/helpers/webgpu-forward-counts.ts) and as CPU-s
 * and wall ms per forward (median over forwards), and the ms spent issuing
 * dispatches (inside runWebGPUProgram: the CPU-side cost each dispatch has
 * whatever the adapter). Counts are the same on
 * SwiftShader as on a GPU; the times are the adapter's, so on SwiftShader
 * (no GPU) they are CPU time running shaders, not a GPU figure.
 *
 * A/B: BENCH_BASELINE=<checkout> (another checkout, built with `npm run
 * build`, e.g. a worktree of the commit before the change) adds it as arm A
 * beside this checkout (B). Each arm runs in its own child process per
 * round (open and three warm forwards untimed), the order alternating every
 * round (A B, then B A), on the same model file and feeds.
 *
 * Environment: BENCH_CONFIG (a --config spec, default `tiny`), BENCH_BATCH
 * (2), BENCH_SEQ (16), BENCH_ROUNDS (2), BENCH_FORWARDS (3), BENCH_BASELINE.
 */
import { spawnSync } from 'node:child_process';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { median } from './bench-passes.js';

const here = dirname(fileURLToPath(import.meta.url));
/** The dist folder of this checkout (this file is dist/tools/bench-tfjs-webgpu.js). */
const thisDist = resolve(here, '..');

interface ArmResult {
  readonly counts: Record<string, number>;
  readonly cpuMs: number;
  readonly wallMs: number;
  /** Wall ms inside runWebGPUProgram per forward: issuing dispatches, not running them. */
  readonly issueMs: number;
  readonly notes: readonly string[];
}

/** Child: import tfjs-webgpu from `dist`, warm up, then count and time each forward. */
async function child(dist: string, onnxPath: string, batch: number, seq: number, forwards: number): Promise<void> {
  const { createTfjsEngine } = (await import(join(dist, 'engines/tfjs/tfjs-engine.js'))) as typeof import('../engines/tfjs/tfjs-engine.js');
  const { hostTensor } = (await import(join(dist, 'src/core/tensor.js'))) as typeof import('../src/core/tensor.js');
  const { countWebGpuCall } = await import('../test/helpers/webgpu-forward-counts.js');
  const session = await createTfjsEngine('webgpu').open(onnxPath, { threads: null, precision: 'fp32' });
  const { readOnnxModel } = await import('../src/core/onnx/onnx-decode.js');
  const n = batch * seq;
  // Synthetic ids (100 + i mod 50, inside any generated vocabulary), a full mask, one segment.
  const feeds = Object.fromEntries((await readOnnxModel(onnxPath)).inputs.map((i) => {
    const data = /mask/.test(i.name) ? new BigInt64Array(n).fill(1n) : /type/.test(i.name) ? new BigInt64Array(n) : BigInt64Array.from({ length: n }, (_, k) => BigInt(100 + (k % 50)));
    return [i.name, hostTensor('int64', [batch, seq], data)];
  }));
  for (let w = 0; w < 3; w++) await session.run(feeds);
  // Time spent issuing dispatches (runWebGPUProgram: shader key, uniforms, bind group, encoding; the GPU runs them later): the per-dispatch CPU cost.
  const backend = (await import('@tensorflow/tfjs-core')).backend() as unknown as { runWebGPUProgram: (...a: unknown[]) => unknown };
  const issue = backend.runWebGPUProgram;
  let issueMs = 0;
  backend.runWebGPUProgram = (...a: unknown[]) => {
    const t = performance.now();
    try {
      return issue.apply(backend, a);
    } finally {
      issueMs += performance.now() - t;
    }
  };
  const per: { counts: Record<string, number>; cpuMs: number; wallMs: number; issueMs: number }[] = [];
  for (let f = 0; f < forwards; f++) {
    issueMs = 0;
    const cpu0 = process.cpuUsage();
    const t0 = performance.now();
    const { counts } = await countWebGpuCall(() => session.run(feeds));
    const wallMs = performance.now() - t0;
    const cpu = process.cpuUsage(cpu0);
    per.push({ counts: { ...counts }, cpuMs: (cpu.user + cpu.system) / 1000, wallMs, issueMs });
  }
  backend.runWebGPUProgram = issue;
  const notes = session.describe().notes ?? [];
  await session.dispose();
  const last = per[per.length - 1];
  const result: ArmResult = { counts: last?.counts ?? {}, cpuMs: median(per.map((p) => p.cpuMs)), wallMs: median(per.map((p) => p.wallMs)), issueMs: median(per.map((p) => p.issueMs)), notes };
  process.stdout.write(`RESULT ${JSON.stringify(result)}\n`);
}

async function parent(): Promise<void> {
  const { dawnAdapter } = await import('../engines/webgpu/dawn-adapter.js');
  const probe = await dawnAdapter();
  if (!probe.ok) {
    console.error(`bench:tfjs-webgpu: no WebGPU adapter: ${probe.reason} (${probe.enable})`);
    process.exit(2);
  }
  const { parseArchitectureText } = await import('../src/models/generated/arch-parse.js');
  const { ensureGeneratedModel } = await import('../src/models/generated/generated-model.js');
  const { REVIEW_TEXTS } = await import('../test/helpers/default-model-fixtures.js');
  const spec = parseArchitectureText(process.env['BENCH_CONFIG'] ?? 'tiny', 'BENCH_CONFIG');
  const batch = Number(process.env['BENCH_BATCH'] ?? 2);
  const seq = Number(process.env['BENCH_SEQ'] ?? 16);
  const rounds = Number(process.env['BENCH_ROUNDS'] ?? 2);
  const forwards = Number(process.env['BENCH_FORWARDS'] ?? 3);
  const dir = await ensureGeneratedModel(spec.config, { texts: REVIEW_TEXTS, padVocabulary: spec.padVocabulary });
  const onnxPath = join(dir, 'onnx', 'model.onnx');
  const baseline = process.env['BENCH_BASELINE'];
  const arms = [...(baseline ? [{ name: 'A (baseline)', dist: resolve(baseline, 'dist') }] : []), { name: 'B (this checkout)', dist: thisDist }];
  console.log(`bench:tfjs-webgpu on ${probe.adapter.label}: ${spec.name}, batch ${batch}, seq ${seq}, ${rounds} round(s) × ${forwards} forwards per arm`);
  const results = new Map<string, ArmResult[]>(arms.map((a) => [a.name, []]));
  for (let r = 0; r < rounds; r++) {
    const order = r % 2 === 0 ? arms : [...arms].reverse();
    for (const arm of order) {
      const run = spawnSync(process.execPath, [fileURLToPath(import.meta.url), '--child', arm.dist, onnxPath, String(batch), String(seq), String(forwards)], { encoding: 'utf8', maxBuffer: 64 << 20 });
      const line = run.stdout.split('\n').find((l) => l.startsWith('RESULT '));
      if (run.status !== 0 || line === undefined) throw new Error(`${arm.name} failed (exit ${run.status}): ${run.stderr.trim().split('\n').slice(-3).join(' | ')}`);
      results.get(arm.name)?.push(JSON.parse(line.slice('RESULT '.length)) as ArmResult);
    }
  }
  for (const arm of arms) {
    const rs = results.get(arm.name) ?? [];
    const first = rs[0];
    console.log(`${arm.name}: CPU ${median(rs.map((x) => x.cpuMs)).toFixed(0)} ms/forward, wall ${median(rs.map((x) => x.wallMs)).toFixed(0)} ms/forward, issuing dispatches ${median(rs.map((x) => x.issueMs)).toFixed(1)} ms/forward (median of ${rs.length} rounds' medians; rounds ${rs.map((x) => x.cpuMs.toFixed(0)).join(', ')} CPU ms)`);
    console.log(`  per forward: ${JSON.stringify(first?.counts ?? {})}`);
  }
}

if (process.argv[2] === '--child') {
  const [, , , dist, onnxPath, batch, seq, forwards] = process.argv;
  await child(dist as string, onnxPath as string, Number(batch), Number(seq), Number(forwards));
} else {
  await parent();
}
