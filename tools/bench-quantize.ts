/**
 * `npm run bench:quantize`: inferbench's q8 writer against onnxruntime's own
 * `quantize_dynamic` on the `--config bert-base` model (768 hidden, 12
 * layers, 30522 vocabulary: a 440 MB fp32 graph), and what the variants buy
 * on onnx-cpu.
 *
 * - Time: each writer quantizes the same file in its own process, A and B
 *   alternating for BENCH_ROUNDS rounds (default 3); the time is measured
 *   inside the process from before reading the model to after saving it
 *   (interpreter start-up and imports excluded on both sides), medians shown.
 *   Python runs quantize_dynamic(per_channel=True, reduce_range=False,
 *   weight_type=QUInt8), the settings inferbench's q8 writes.
 * - Memory: each process's peak RSS (getrusage ru_maxrss), against the
 *   model's size.
 * - Speed-up: fp32, q8 and q8-static (calibrated on the embedded dataset's
 *   first 128 rows) on onnx-cpu at batch 1, sequence 128, BENCH_RUNS calls
 *   each (default 30) in alternating rounds; median ms per call.
 *
 * INFERBENCH_PYTHON names the Python with onnxruntime (default python3); the
 * bench says so and exits 1 when its onnxruntime.quantization cannot be imported.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, rmSync, statSync } from 'node:fs';
import { availableParallelism, loadavg } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createHash } from 'node:crypto';
import { parseArchitectures } from '../src/models/generated/arch-parse.js';
import { ensureArchitectureFolder } from '../src/models/architecture-classifier.js';
import { TextClassification } from '../src/models/text-classification.js';
import { ensureQuantizedVariant } from '../src/models/quantize/quantize-cache.js';
import { createOnnxNodeEngine } from '../engines/onnx/onnx-node-engine.js';
import { openDataset } from '../datasets/open-dataset.js';
import { defaultCacheRoot } from '../src/models/generated/generated-model.js';
import { hostTensor, type TensorMap } from '../src/core/tensor.js';
import { percentileOfSorted } from '../src/core/statistics.js';

const PYTHON = process.env['INFERBENCH_PYTHON'] ?? 'python3';
const ROUNDS = Number(process.env['BENCH_ROUNDS'] ?? 3);
const RUNS = Number(process.env['BENCH_RUNS'] ?? 30);
const SEQ = 128;

const PY_QUANTIZE = `
import json, resource, sys, time
from onnxruntime.quantization import QuantType, quantize_dynamic
start = time.perf_counter()
quantize_dynamic(sys.argv[1], sys.argv[2], per_channel=True, reduce_range=False, weight_type=QuantType.QUInt8)
print(json.dumps({"seconds": time.perf_counter() - start, "maxRssBytes": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024}))
`;

const median = (xs: readonly number[]): number => percentileOfSorted([...xs].sort((a, b) => a - b), 50);

interface WriterRun {
  readonly seconds: number;
  readonly maxRssBytes: number;
}

function runChild(command: string, args: readonly string[], what: string): WriterRun {
  const out = spawnSync(command, args, { encoding: 'utf8', maxBuffer: 16 * 1024 * 1024 });
  if (out.status !== 0) throw new Error(`${what} failed (exit ${out.status}): ${out.stderr.split('\n').filter((l) => l.trim()).slice(-3).join(' | ')}`);
  const line = out.stdout.trim().split('\n').pop() ?? '';
  return JSON.parse(line) as WriterRun;
}

const mb = (bytes: number): string => `${(bytes / 1e6).toFixed(1)} MB`;

async function main(): Promise<void> {
  const probe = spawnSync(PYTHON, ['-c', 'import onnxruntime, onnxruntime.quantization; print(onnxruntime.__version__)'], { encoding: 'utf8' });
  if (probe.status !== 0) {
    process.stderr.write(`bench:quantize: ${PYTHON} cannot import onnxruntime.quantization, so there is nothing to compare with; set INFERBENCH_PYTHON to a Python with onnxruntime (e.g. INFERBENCH_PYTHON=/work/venv/bin/python)\n`);
    process.exit(1);
  }
  const ortVersion = probe.stdout.trim();
  const [spec] = parseArchitectures(['bert-base']);
  if (!spec) throw new Error('no bert-base preset');
  process.stderr.write('bench:quantize: generating --config bert-base (cached after the first run)…\n');
  const dir = await ensureArchitectureFolder(spec);
  const source = join(dir, 'onnx', 'model.onnx');
  const modelBytes = statSync(source).size;
  const scratch = join(defaultCacheRoot(), 'bench-quantize');
  mkdirSync(scratch, { recursive: true });
  const child = join(fileURLToPath(new URL('.', import.meta.url)), 'bench-quantize-child.js');

  const ours: WriterRun[] = [];
  const python: WriterRun[] = [];
  const oursFile = join(scratch, 'inferbench_q8.onnx');
  const pyFile = join(scratch, 'ort_q8.onnx');
  for (let r = 0; r < ROUNDS; r++) {
    for (const side of r % 2 === 0 ? ['inferbench', 'python'] : ['python', 'inferbench']) {
      rmSync(side === 'python' ? pyFile : oursFile, { force: true });
      if (side === 'python') python.push(runChild(PYTHON, ['-c', PY_QUANTIZE, source, pyFile], 'quantize_dynamic'));
      else ours.push(runChild(process.execPath, [child, source, oursFile], 'inferbench q8 writer'));
      process.stderr.write(`  round ${r + 1}/${ROUNDS} ${side}: ${(side === 'python' ? python : ours).at(-1)?.seconds.toFixed(2)} s\n`);
    }
  }

  process.stderr.write('bench:quantize: q8 and q8-static variants for the speed-up…\n');
  const engine = createOnnxNodeEngine('cpu');
  const fp32 = await new TextClassification(dir).init();
  const texts: string[] = [];
  for await (const row of (await openDataset()).take(128)) texts.push(String(row['text']));
  const batches: TensorMap[] = [];
  for (let i = 0; i < texts.length; i += 8) batches.push(fp32.tokenizeTexts(texts.slice(i, i + 8)));
  const cacheRoot = scratch;
  const q8 = await ensureQuantizedVariant({ sourceDir: dir, dtype: 'q8', cacheRoot });
  const calibrationStart = performance.now();
  const staticQ = await ensureQuantizedVariant({
    sourceDir: dir,
    dtype: 'q8-static',
    cacheRoot,
    calibration: { batches, rows: texts.length, method: 'minmax', rowsHash: createHash('sha256').update(JSON.stringify(texts)).digest('hex'), engine },
  });
  const calibrationSeconds = (performance.now() - calibrationStart) / 1000;
  if ('skip' in q8 || 'skip' in staticQ) throw new Error(`variant not written: ${'skip' in q8 ? q8.skip : ''} ${'skip' in staticQ ? staticQ.skip : ''}`);
  const files: Record<string, string> = { fp32: source, q8: join(q8.dir, q8.file), 'q8-static': join(staticQ.dir, staticQ.file) };
  const ids = new BigInt64Array(SEQ);
  for (let i = 0; i < SEQ; i++) ids[i] = BigInt(1000 + ((i * 7919) % 20000));
  const feeds: TensorMap = {};
  for (const input of fp32.inputs) {
    feeds[input.name] = hostTensor('int64', [1, SEQ], input.name === 'attention_mask' ? new BigInt64Array(SEQ).fill(1n) : input.name === 'token_type_ids' ? new BigInt64Array(SEQ) : ids);
  }
  const sessions = new Map<string, Awaited<ReturnType<typeof engine.open>>>();
  for (const [name, path] of Object.entries(files)) sessions.set(name, await engine.open(path, { threads: null, precision: name === 'fp32' ? 'fp32' : 'int8' }));
  const times = new Map<string, number[]>([...sessions.keys()].map((k) => [k, []]));
  for (const s of sessions.values()) for (let i = 0; i < 3; i++) await s.run(feeds);
  for (let r = 0; r < RUNS; r++) {
    for (const [name, s] of sessions) {
      const t0 = performance.now();
      await s.run(feeds);
      times.get(name)?.push(performance.now() - t0);
    }
  }
  for (const s of sessions.values()) await s.dispose();

  const t = (xs: readonly WriterRun[]): number => median(xs.map((x) => x.seconds));
  const rss = (xs: readonly WriterRun[]): number => Math.max(...xs.map((x) => x.maxRssBytes));
  const fp32Ms = median(times.get('fp32') ?? []);
  const lines = [
    `bench:quantize — --config bert-base (${mb(modelBytes)} fp32), ${ROUNDS} alternating rounds; onnxruntime ${ortVersion}; load average ${loadavg()[0]?.toFixed(2)} on ${availableParallelism()} cores`,
    `writer                        time (median)   peak RSS            file`,
    `inferbench q8                 ${t(ours).toFixed(2).padStart(8)} s      ${mb(rss(ours)).padStart(9)} (${(rss(ours) / modelBytes).toFixed(2)}× model)   ${mb(statSync(oursFile).size)}`,
    `onnxruntime quantize_dynamic  ${t(python).toFixed(2).padStart(8)} s      ${mb(rss(python)).padStart(9)} (${(rss(python) / modelBytes).toFixed(2)}× model)   ${mb(statSync(pyFile).size)}`,
    `inferbench ÷ quantize_dynamic: ${(t(ours) / t(python)).toFixed(2)}× the time (target ≤ 1.5×); inferbench peak RSS ${(rss(ours) / modelBytes).toFixed(2)}× the model (target < 2×)`,
    `q8-static: calibration on 128 rows and writing took ${calibrationSeconds.toFixed(1)} s; file ${mb(statSync(files['q8-static'] as string).size)}`,
    `onnx-cpu, batch 1, sequence ${SEQ}, ${RUNS} alternating calls each, median:`,
    ...[...times].map(([name, xs]) => `  ${name.padEnd(10)} ${median(xs).toFixed(2).padStart(8)} ms   speed-up over fp32 ${(fp32Ms / median(xs)).toFixed(2)}×`),
  ];
  process.stdout.write(`${lines.join('\n')}\n`);
}

await main();
