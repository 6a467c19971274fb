/**
 * `npm run bench:generate`: TTFT, TPOT and decode tokens/s of the embedded
 * default decoder on onnx-cpu (32 prompt tokens, 32 new tokens, output length
 * fixed), through transformers.js's `generate()` and through inferbench's
 * own greedy loop, plus the overhead of BenchmarkWrapper's timing hooks over
 * an unwrapped `generate()` on each path.
 *
 * Overhead is measured over rotating calls (unwrapped, wrapped, unwrapped
 * again, in turn) so drift in machine speed hits every side alike, on
 * medians of wall time (the figure the target is set on) and of process CPU
 * time (the work the hooks add, blind to waiting for a core). The second
 * unwrapped side is an A/A control: its difference from the first is the
 * noise floor of this machine at this moment, printed beside the overhead.
 */
import { availableParallelism } from 'node:os';
import { AutoModelForCausalLM, env, Tensor } from '@huggingface/transformers';
import { defaultGenerator } from '../src/models/default-generator.js';
import { BenchmarkWrapper, type GenerationMeasurement } from '../src/scenarios/generate/benchmark-wrapper.js';
import type { GenerateArgs, GenerationModelLike } from '../src/core/generate-args.js';
import { PeakRssWatcher } from '../src/scenarios/generate/peak-rss-watcher.js';

const PROMPT = 32;
const NEW_TOKENS = 32;
const ROUNDS = Number(process.env['BENCH_ROUNDS'] ?? 300);
const WARMUP = 5;
/**
 * Intra-op threads of both sessions. 1 by default: on a shared machine the
 * spin-and-wait of a multi-threaded ORT step is so sensitive to other load
 * that identical calls vary by ±10 %, which hides a 2 % effect.
 */
const THREADS = Number(process.env['BENCH_THREADS'] ?? 1);

function median(xs: readonly number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? (s[m] as number) : ((s[m - 1] as number) + (s[m] as number)) / 2;
}

interface Side {
  readonly wallMs: number[];
  readonly cpuMs: number[];
}

interface PathResult {
  readonly name: string;
  readonly bare: Side;
  readonly wrapped: Side;
  /** A second unwrapped side, the A/A control. */
  readonly control: Side;
  readonly ttftMs: number;
  readonly tpotMs: number;
  readonly decodeTokensPerSecond: number;
}

/** Times one call: wall clock and process CPU time (all threads, user + system). */
async function timed(side: Side, call: () => Promise<unknown>): Promise<void> {
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  await call();
  const wall = performance.now() - t0;
  const cpu = process.cpuUsage(cpu0);
  side.wallMs.push(wall);
  side.cpuMs.push((cpu.user + cpu.system) / 1000);
}

async function benchPath(name: string, model: GenerationModelLike, args: GenerateArgs): Promise<PathResult> {
  const wrapper = new BenchmarkWrapper(model, { gpuMemory: false });
  for (let i = 0; i < WARMUP; i++) {
    await model.generate(args);
    await wrapper.generate(args);
  }
  const bare: Side = { wallMs: [], cpuMs: [] };
  const wrapped: Side = { wallMs: [], cpuMs: [] };
  const control: Side = { wallMs: [], cpuMs: [] };
  const measurements: GenerationMeasurement[] = [];
  const sides = [
    () => timed(bare, () => model.generate(args)),
    () => timed(wrapped, async () => measurements.push((await wrapper.measure(args)).measurement)),
    () => timed(control, () => model.generate(args)),
  ];
  for (let round = 0; round < ROUNDS; round++) {
    for (let i = 0; i < sides.length; i++) await (sides[(round + i) % sides.length] as () => Promise<void>)();
  }
  await wrapper.dispose();
  const rest = measurements.flatMap((m) => m.restTokenMs);
  const restTotal = rest.reduce((a, b) => a + b, 0);
  return {
    name,
    bare,
    wrapped,
    control,
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
const tjs = await AutoModelForCausalLM.from_pretrained(model.dir, {
  local_files_only: true,
  session_options: { intraOpNumThreads: THREADS, interOpNumThreads: 1, executionMode: 'sequential', graphOptimizationLevel: 'all' },
});
const tjsArgs: GenerateArgs = {
  input_ids: new Tensor('int64', BigInt64Array.from(ids.flat()), [1, PROMPT]),
  attention_mask: new Tensor('int64', new BigInt64Array(PROMPT).fill(1n), [1, PROMPT]),
  ...common,
};
const harness = await model.open('onnx-cpu', { threads: THREADS });
const results = [
  await benchPath('transformers.js generate()', tjs as unknown as GenerationModelLike, tjsArgs),
  await benchPath('inferbench greedy loop', harness, { input_ids: ids, ...common }),
];

// The hook's own cost per token: a clock read, and a peak-RSS read at most every 2 ms.
const watcher = new PeakRssWatcher();
watcher.reset();
const HOOK_REPS = 200000;
const h0 = performance.now();
let sink = 0;
for (let i = 0; i < HOOK_REPS; i++) sink += watcher.at(performance.now());
const hookUs = ((performance.now() - h0) / HOOK_REPS) * 1000;
const direct0 = performance.now();
for (let i = 0; i < 20000; i++) sink += process.resourceUsage().maxRSS;
const directUs = ((performance.now() - direct0) / 20000) * 1000;
watcher.read();

const pct = (wrapped: number, bare: number) => {
  const p = ((wrapped - bare) / bare) * 100;
  return `${p >= 0 ? '+' : ''}${p.toFixed(2)}%`;
};
console.log(
  `bench:generate — ${model.name} on onnx-cpu, batch 1, ${PROMPT} prompt tokens, ${NEW_TOKENS} new tokens (fixed), ` +
    `${THREADS} intra-op thread${THREADS === 1 ? '' : 's'} (BENCH_THREADS), ${availableParallelism()} cores`,
);
console.log(`${ROUNDS} rotations of (unwrapped, wrapped, unwrapped again) per path`);
console.log('');
console.log('path                          TTFT (p50)  TPOT (p50)  decode tok/s');
for (const r of results) {
  console.log(`${r.name.padEnd(28)} ${`${r.ttftMs.toFixed(3)} ms`.padStart(11)} ${`${r.tpotMs.toFixed(3)} ms`.padStart(11)} ${r.decodeTokensPerSecond.toFixed(0).padStart(13)}`);
}
console.log('');
console.log('hook overhead (A/A noise)     wall time, medians                     CPU time, medians');
for (const r of results) {
  const cols = (['wallMs', 'cpuMs'] as const).map((k) => {
    const b = median(r.bare[k]);
    const w = median(r.wrapped[k]);
    return `${b.toFixed(2)} → ${w.toFixed(2)} ms ${pct(w, b)} (${pct(median(r.control[k]), b)})`.padEnd(39);
  });
  console.log(`${r.name.padEnd(28)} ${cols.join('')}`);
}
console.log('');
console.log(`hook cost per token in a tight loop: ${hookUs.toFixed(3)} µs (one peak-RSS read alone: ${directUs.toFixed(2)} µs)${sink === 0 ? ' ' : ''}`);
console.log('overhead = (wrapped − unwrapped) / unwrapped per generate() call; target ≤ 2 %');
await harness.session.dispose();
await tjs.dispose();
