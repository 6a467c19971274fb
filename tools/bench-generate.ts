/**
 * `npm run bench:generate`: TTFT, TPOT and decode tokens/s of the embedded
 * default decoder on onnx-cpu (32 prompt tokens, 32 new tokens, output length
 * fixed), through transformers.js's `generate()` and through inferbench's
 * own greedy loop, plus the overhead of BenchmarkWrapper's timing hooks over
 * an unwrapped `generate()` on each path.
 *
 * Overhead is measured over alternating calls (unwrapped, wrapped, wrapped,
 * unwrapped, …) so drift in machine speed hits both sides alike; the
 * overhead is the median of the paired differences over the median
 * unwrapped call.
 */
import { availableParallelism } from 'node:os';
import { AutoModelForCausalLM, env, Tensor } from '@huggingface/transformers';
import { defaultGenerator } from '../src/default-generator.js';
import { BenchmarkWrapper, type GenerationMeasurement } from '../src/generation/benchmark-wrapper.js';
import type { GenerateArgs, GenerationModelLike } from '../src/generation/generate-args.js';
import { PeakRssWatcher } from '../src/generation/peak-rss-watcher.js';

const PROMPT = 32;
const NEW_TOKENS = 32;
const PAIRS = Number(process.env['BENCH_PAIRS'] ?? 200);
const WARMUP = 5;

function median(xs: readonly number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? (s[m] as number) : ((s[m - 1] as number) + (s[m] as number)) / 2;
}

interface PathResult {
  readonly name: string;
  readonly bareMs: number;
  readonly wrappedMs: number;
  /** Median of (wrapped − unwrapped) over adjacent pairs of calls. */
  readonly pairedDiffMs: number;
  readonly ttftMs: number;
  readonly tpotMs: number;
  readonly decodeTokensPerSecond: number;
}

async function benchPath(name: string, model: GenerationModelLike, args: GenerateArgs): Promise<PathResult> {
  const wrapper = new BenchmarkWrapper(model, { gpuMemory: false });
  for (let i = 0; i < WARMUP; i++) {
    await model.generate(args);
    await wrapper.generate(args);
  }
  const bare: number[] = [];
  const wrapped: number[] = [];
  const measurements: GenerationMeasurement[] = [];
  const timeBare = async () => {
    const t0 = performance.now();
    await model.generate(args);
    bare.push(performance.now() - t0);
  };
  const timeWrapped = async () => {
    const t0 = performance.now();
    const { measurement } = await wrapper.measure(args);
    wrapped.push(performance.now() - t0);
    measurements.push(measurement);
  };
  // Calls alternate one by one, the order flipping every pair, so load on the machine hits both sides alike.
  for (let pair = 0; pair < PAIRS; pair++) {
    const order = pair % 2 === 0 ? [timeBare, timeWrapped] : [timeWrapped, timeBare];
    for (const run of order) await run();
  }
  await wrapper.dispose();
  const rest = measurements.flatMap((m) => m.restTokenMs);
  const restTotal = rest.reduce((a, b) => a + b, 0);
  return {
    name,
    bareMs: median(bare),
    wrappedMs: median(wrapped),
    pairedDiffMs: median(wrapped.map((w, i) => w - (bare[i] as number))),
    ttftMs: median(measurements.map((m) => m.firstTokenMs)),
    tpotMs: median(rest),
    decodeTokensPerSecond: (rest.length * 1000) / restTotal,
  };
}

const model = await defaultGenerator();
const [prompt] = model.promptIds(['I loved the cinematography, and the soundtrack made my day.'], PROMPT);
const ids = [prompt as bigint[]];
const common = { max_new_tokens: NEW_TOKENS, min_new_tokens: NEW_TOKENS, do_sample: false };

env.allowRemoteModels = false;
const tjs = await AutoModelForCausalLM.from_pretrained(model.dir, { local_files_only: true });
const tjsArgs: GenerateArgs = {
  input_ids: new Tensor('int64', BigInt64Array.from(ids.flat()), [1, PROMPT]),
  attention_mask: new Tensor('int64', new BigInt64Array(PROMPT).fill(1n), [1, PROMPT]),
  ...common,
};
const harness = await model.load('onnx-cpu');
const results = [
  await benchPath('transformers.js generate()', tjs as unknown as GenerationModelLike, tjsArgs),
  await benchPath('inferbench greedy loop', harness, { input_ids: ids, ...common }),
];

// The hook's own cost per token: a clock read and a read of the shared peak-RSS value.
const watcher = new PeakRssWatcher();
watcher.begin();
const HOOK_REPS = 200000;
const h0 = performance.now();
let sink = 0;
for (let i = 0; i < HOOK_REPS; i++) sink += performance.now() + watcher.latest();
const hookUs = ((performance.now() - h0) / HOOK_REPS) * 1000;
watcher.end();
await watcher.dispose();

console.log(`bench:generate — ${model.name} on onnx-cpu, batch 1, ${PROMPT} prompt tokens, ${NEW_TOKENS} new tokens (fixed), ${availableParallelism()} cores`);
console.log(`${PAIRS} alternating pairs of calls (unwrapped, wrapped); medians of whole generate() calls`);
console.log('path                         TTFT        TPOT     decode tok/s   unwrapped call   wrapped call   hook overhead');
for (const r of results) {
  const pct = (r.pairedDiffMs / r.bareMs) * 100;
  console.log(
    `${r.name.padEnd(27)} ${`${r.ttftMs.toFixed(3)} ms`.padStart(10)} ${`${r.tpotMs.toFixed(3)} ms`.padStart(11)} ${r.decodeTokensPerSecond.toFixed(0).padStart(12)}   ${`${r.bareMs.toFixed(2)} ms`.padStart(14)} ${`${r.wrappedMs.toFixed(2)} ms`.padStart(14)}   ${pct >= 0 ? '+' : ''}${pct.toFixed(2)}%`,
  );
}
console.log(`hook cost per token (clock + shared peak-RSS read): ${hookUs.toFixed(3)} µs${sink === 0 ? ' ' : ''}`);
console.log('hook overhead = median over pairs of (wrapped call − unwrapped call) / median unwrapped call; target ≤ 2%');
await harness.session.dispose();
await tjs.dispose();
