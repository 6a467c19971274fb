/**
 * `npm run bench:saved-model`: what tfjs-node's `tf.node.loadSavedModel`
 * and the first `predict` cost for the `--config minilm` model (hidden 384,
 * 6 layers, 90 MB of fp32 weights) exported as inferbench writes it (weights
 * in a `variables/` checkpoint) against the earlier layout (every weight a
 * Const in `saved_model.pb`, `constOnlySavedModelBytes`).
 *
 * Each measurement is a fresh child process (this script with `--child DIR`:
 * TensorFlow sizes its pools and caches kernels once per process) that
 * imports tfjs-node, then reads process CPU time (user + system, every
 * thread) and wall time around `loadSavedModel` and around the first
 * `predict` on a [1, 16] batch; layouts alternate within each round, and the
 * figure is the median over BENCH_ROUNDS rounds (default 3). Peak RSS of the
 * child is printed too.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { readOnnxModel } from '../src/core/onnx/onnx-decode.js';
import { ARCHITECTURE_PRESETS } from '../src/models/generated/arch-presets.js';
import { buildBertOnnx } from '../src/models/generated/bert-graph.js';
import { convertOnnxToTf } from '../src/models/tf-export/onnx-to-tf.js';
import { constOnlySavedModelBytes, savedModelFiles } from '../src/models/tf-export/saved-model-writer.js';
import { median } from './bench-passes.js';

const ROUNDS = Number(process.env['BENCH_ROUNDS'] ?? 3);

interface ChildFigures {
  readonly openCpuS: number;
  readonly openWallS: number;
  readonly firstRunCpuS: number;
  readonly firstRunWallS: number;
  readonly maxRssMb: number;
}

interface SavedModelLike {
  predict(inputs: Record<string, unknown>): unknown;
}
interface TfNode {
  node: { loadSavedModel(path: string, tags: string[], signature: string): Promise<SavedModelLike> };
  ones(shape: number[], dtype: string): unknown;
}

async function child(dir: string): Promise<void> {
  const tf = createRequire(import.meta.url)('@tensorflow/tfjs-node') as TfNode;
  const cpu = (): number => {
    const u = process.cpuUsage();
    return (u.user + u.system) / 1e6;
  };
  let c = cpu();
  let w = performance.now();
  const model = await tf.node.loadSavedModel(dir, ['serve'], 'serving_default');
  const openCpuS = cpu() - c;
  const openWallS = (performance.now() - w) / 1000;
  const feeds = Object.fromEntries(['input_ids', 'attention_mask', 'token_type_ids'].map((k) => [k, tf.ones([1, 16], 'int32')]));
  c = cpu();
  w = performance.now();
  model.predict(feeds);
  const figures: ChildFigures = { openCpuS, openWallS, firstRunCpuS: cpu() - c, firstRunWallS: (performance.now() - w) / 1000, maxRssMb: process.resourceUsage().maxRSS / 1024 };
  process.stdout.write(`${JSON.stringify(figures)}\n`);
}

async function main(): Promise<void> {
  const work = mkdtempSync(join(tmpdir(), 'bench-saved-model-'));
  try {
    const preset = ARCHITECTURE_PRESETS['minilm'];
    if (!preset) throw new Error('no minilm preset');
    const onnxPath = join(work, 'model.onnx');
    writeFileSync(onnxPath, buildBertOnnx(preset.config));
    const { graph } = await convertOnnxToTf(await readOnnxModel(onnxPath), 'saved-model', 'bench:saved-model');
    const layouts = { checkpoint: join(work, 'checkpoint'), 'const-only': join(work, 'const-only') };
    const files = savedModelFiles(graph);
    mkdirSync(join(layouts.checkpoint, 'variables'), { recursive: true });
    writeFileSync(join(layouts.checkpoint, 'saved_model.pb'), files.savedModel);
    for (const [name, bytes] of files.variables) writeFileSync(join(layouts.checkpoint, name), bytes instanceof Uint8Array ? bytes : Buffer.concat(bytes.map((b) => Buffer.from(b))));
    mkdirSync(join(layouts['const-only'], 'variables'), { recursive: true });
    writeFileSync(join(layouts['const-only'], 'saved_model.pb'), constOnlySavedModelBytes(graph));
    const results: Record<string, ChildFigures[]> = { checkpoint: [], 'const-only': [] };
    console.log(`minilm shape (hidden 384, 6 layers), ${ROUNDS} rounds, load average before ${loadavg().map((l) => l.toFixed(2)).join(' ')}`);
    for (let round = 0; round < ROUNDS; round++) {
      for (const [label, dir] of Object.entries(layouts)) {
        const r = spawnSync(process.execPath, [fileURLToPath(import.meta.url), '--child', dir], { encoding: 'utf8', env: { ...process.env, TF_CPP_MIN_LOG_LEVEL: '2' } });
        const line = r.stdout.trim().split('\n').pop() ?? '';
        if (r.status !== 0 || !line.startsWith('{')) throw new Error(`${label} child failed (${r.status}): ${r.stderr.slice(-2000)}`);
        results[label]?.push(JSON.parse(line) as ChildFigures);
      }
    }
    console.log('layout       open CPU-s  open wall s  first run CPU-s  first run wall s  peak RSS MB   (medians)');
    for (const [label, rs] of Object.entries(results)) {
      const m = (k: keyof ChildFigures): string => median(rs.map((r) => r[k])).toFixed(2);
      console.log(`${label.padEnd(12)} ${m('openCpuS').padStart(10)} ${m('openWallS').padStart(12)} ${m('firstRunCpuS').padStart(16)} ${m('firstRunWallS').padStart(17)} ${median(rs.map((r) => r.maxRssMb)).toFixed(0).padStart(12)}`);
    }
    console.log(`load average after ${loadavg().map((l) => l.toFixed(2)).join(' ')}`);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

if (process.argv[2] === '--child') await child(process.argv[3] ?? '');
else await main();
