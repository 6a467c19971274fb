/**
 * `npm run bench:tfjs-native`: the three ways a tfjs row can run the
 * default model, on the same rows, against onnx-cpu.
 *
 * - tfjs-node: the SavedModel in a TensorFlow session
 *   (tfjs-node-saved-model), the GraphModel on tfjs-converter's executor
 *   (tfjs-node-graph-model) and inferbench's translator (tfjs-node), beside
 *   onnx-cpu, at each batch size, with 1 thread and with each engine's
 *   default. libtensorflow sizes its pools once per process, so each
 *   thread setting runs in its own child process (this script with
 *   `--threads`); within a child every row runs in one process.
 * - tfjs-wasm and tfjs-cpu: the translator against the GraphModel executor
 *   (single-threaded in Node; measured in the 1-thread child).
 *
 * Rows alternate within each round (the machine is shared and noisy); each
 * figure is the median over rounds of the mean ms per batch of one pass
 * over the rows, wall clock, with the process CPU ms per batch (user +
 * system, all threads) beside it. Each run is timed around `session.run`:
 * feeds converted, forward, outputs read back to the host.
 *
 * A third child repeats the tfjs-node rows at 1 thread with TensorFlow's
 * oneDNN kernels off (TF_ENABLE_ONEDNN_OPTS=0, read by libtensorflow at
 * load; on is its default on x86), which is most of the SavedModel's gap at
 * batch 1: what a deployer can set, shown beside what TensorFlow does by default.
 *
 * Env: BENCH_ROWS (default 64), BENCH_ROUNDS (5), BENCH_BATCH_SIZES (1,32).
 */
import { spawnSync } from 'node:child_process';
import { availableParallelism, loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import { createOnnxNodeEngine } from '../engines/onnx/onnx-node-engine.js';
import { createNativeTfjsEngine } from '../engines/tfjs/native-engine.js';
import { createTfjsEngine } from '../engines/tfjs/tfjs-engine.js';
import { defaultClassifier, openDataset, resolveColumns, type EngineSession, type TensorMap } from '../src/index.js';
import { median, pass, type PassTime } from './bench-passes.js';

const ROWS = Number(process.env['BENCH_ROWS'] ?? 64);
const ROUNDS = Number(process.env['BENCH_ROUNDS'] ?? 5);
const BATCH_SIZES = (process.env['BENCH_BATCH_SIZES'] ?? '1,32').split(',').map(Number);

interface Row {
  readonly label: string;
  readonly session: EngineSession;
}

/** The child: every row of one thread setting in this process; prints one JSON line. */
async function child(threads: number | null, wasmAndCpu: boolean): Promise<void> {
  const model = await defaultClassifier();
  const columns = resolveColumns(await (await openDataset()).columns());
  const open = async (label: string, engine: ReturnType<typeof createTfjsEngine>, format: 'onnx' | 'graph-model' | 'saved-model', t: number | null): Promise<Row> => ({
    label,
    session: await engine.open(await model.modelFile(format), { threads: t, precision: 'fp32' }),
  });
  // tfjs-node first: the first libtensorflow import sizes its pools.
  const rows: Row[] = [
    await open('tfjs-node SavedModel', createNativeTfjsEngine('node', 'saved-model'), 'saved-model', threads),
    await open('tfjs-node GraphModel', createNativeTfjsEngine('node', 'graph-model'), 'graph-model', threads),
    await open('tfjs-node translator', createTfjsEngine('node'), 'onnx', threads),
    await open('onnx-cpu', createOnnxNodeEngine('cpu'), 'onnx', threads),
  ];
  if (wasmAndCpu) {
    rows.push(
      await open('tfjs-wasm translator', createTfjsEngine('wasm'), 'onnx', null),
      await open('tfjs-wasm GraphModel', createNativeTfjsEngine('wasm', 'graph-model'), 'graph-model', null),
      await open('tfjs-cpu translator', createTfjsEngine('cpu'), 'onnx', null),
      await open('tfjs-cpu GraphModel', createNativeTfjsEngine('cpu', 'graph-model'), 'graph-model', null),
    );
  }
  const described = Object.fromEntries(rows.map((r) => [r.label, { threads: r.session.describe().threads, executor: r.session.describe().executor }]));
  const results: Record<string, Record<string, { wall: number; cpu: number }>> = {};
  for (const batchSize of BATCH_SIZES) {
    const batches: TensorMap[] = [];
    for await (const chunk of (await openDataset()).take(ROWS).batches(batchSize)) batches.push(model.prepareBatch(chunk, columns));
    const times = new Map<string, PassTime[]>(rows.map((r) => [r.label, []]));
    for (let round = 0; round < ROUNDS; round++) {
      // Rotated each round, so no row always runs right after another.
      for (let i = 0; i < rows.length; i++) {
        const row = rows[(i + round) % rows.length] as Row;
        times.get(row.label)?.push(await pass(row.session, batches, 1));
      }
    }
    results[String(batchSize)] = Object.fromEntries([...times].map(([label, t]) => [label, { wall: median(t.map((x) => x.wall)), cpu: median(t.map((x) => x.cpu)) }]));
  }
  for (const r of rows) await r.session.dispose();
  console.log(JSON.stringify({ described, results }));
}

interface ChildResult {
  readonly described: Record<string, { threads: number | null; executor?: string }>;
  readonly results: Record<string, Record<string, { wall: number; cpu: number }>>;
}

function runChild(threads: number | null, options: { wasmAndCpu?: boolean; env?: Record<string, string> } = {}): ChildResult {
  const script = fileURLToPath(import.meta.url);
  const args = [script, '--threads', threads === null ? 'default' : String(threads), ...(options.wasmAndCpu ? ['--wasm-and-cpu'] : [])];
  const r = spawnSync(process.execPath, args, { encoding: 'utf8', env: { ...process.env, TF_CPP_MIN_LOG_LEVEL: '2', ...options.env }, maxBuffer: 16 * 1024 * 1024 });
  const line = r.stdout.trim().split('\n').pop() ?? '';
  try {
    return JSON.parse(line) as ChildResult;
  } catch {
    throw new Error(`bench child (threads ${String(threads)}) failed: ${r.stderr.trim().split('\n').slice(-5).join(' | ')}`);
  }
}

function table(title: string, result: ChildResult, labels: readonly string[], reference: string | null): void {
  console.log(`\n${title}`);
  const header = ['batch', ...labels.map((l) => `${l} ms (CPU ms)${reference && l !== reference ? ' ×ref' : ''}`)];
  console.log(header.join(' | '));
  for (const batch of BATCH_SIZES) {
    const row = result.results[String(batch)] ?? {};
    const ref = reference ? row[reference]?.wall : undefined;
    const cells = labels.map((l) => {
      const t = row[l];
      if (!t) return 'n/a';
      const ratio = ref && l !== reference ? ` ${(t.wall / ref).toFixed(2)}×` : '';
      return `${t.wall.toFixed(2)} (${t.cpu.toFixed(2)})${ratio}`;
    });
    console.log([String(batch), ...cells].join(' | '));
  }
}

const flag = process.argv.indexOf('--threads');
if (flag >= 0) {
  const value = process.argv[flag + 1];
  await child(value === 'default' ? null : Number(value), process.argv.includes('--wasm-and-cpu'));
} else {
  const model = await defaultClassifier();
  console.log(`bench:tfjs-native — ${model.name}, ${ROWS} rows, batch sizes ${BATCH_SIZES.join(', ')}, ${ROUNDS} rounds (rows rotated each round); median over rounds of mean ms per batch, wall (process CPU)`);
  console.log(`load average ${loadavg()[0]?.toFixed(2)} on ${availableParallelism()} cores`);
  const one = runChild(1, { wasmAndCpu: true });
  const dflt = runChild(null);
  const noOneDnn = runChild(1, { env: { TF_ENABLE_ONEDNN_OPTS: '0' } });
  const node = ['tfjs-node SavedModel', 'tfjs-node GraphModel', 'tfjs-node translator', 'onnx-cpu'];
  const threadsOf = (r: ChildResult): string => node.map((l) => `${l} ${r.described[l]?.threads ?? 'default'}`).join(', ');
  table(`tfjs-node against onnx-cpu, 1 thread (threads read back: ${threadsOf(one)}); ×ref: wall ÷ onnx-cpu`, one, node, 'onnx-cpu');
  table(`tfjs-node against onnx-cpu, each engine's default threads (read back: ${threadsOf(dflt)}); ×ref: wall ÷ onnx-cpu`, dflt, node, 'onnx-cpu');
  table(`tfjs-node with TensorFlow's oneDNN kernels off (TF_ENABLE_ONEDNN_OPTS=0), 1 thread; ×ref: wall ÷ onnx-cpu`, noOneDnn, node, 'onnx-cpu');
  table('tfjs-wasm: translator against the GraphModel executor (single-threaded in Node); ×ref: wall ÷ translator', one, ['tfjs-wasm translator', 'tfjs-wasm GraphModel'], 'tfjs-wasm translator');
  table('tfjs-cpu: translator against the GraphModel executor; ×ref: wall ÷ translator', one, ['tfjs-cpu translator', 'tfjs-cpu GraphModel'], 'tfjs-cpu translator');
  console.log(`\nload average ${loadavg()[0]?.toFixed(2)} after`);
}
