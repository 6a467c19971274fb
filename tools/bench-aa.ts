/**
 * `npm run bench:aa`: does `compare` call only real changes on this machine?
 *
 * 1. A/A: two identical `inferbench run`s of onnx-cpu and onnx-wasm at
 *    batch 1 and 8 (the CLI with its default rounds), compared. Every
 *    "faster"/"slower" is a false call; the target is 0.
 * 2. A real change: the same pair with one core kept busy by a spinning
 *    child process (`node -e 'for(;;){}'`) for the whole of each B run. On 2
 *    cores onnx-cpu's 2-thread batch 8 must then be called slower.
 *
 * Runs alternate A, B, A, B… With BENCH_AA_REPEATS=k (default 1) each side
 * is k separate runs, interleaved, whose rounds are pooled into one record
 * per side before comparing: the runner measures all rounds of one run in a
 * row, so alternating whole runs is how drift is made to hit both sides
 * alike. With k = 1 and a runner that records one round per cell, every
 * cell shows "one round: no between-round evidence", as it should. On a
 * runner with `--rounds`, BENCH_AA_ROUNDS=1 BENCH_AA_REPEATS=3 makes the
 * rounds themselves alternate A, B, A, B, A, B: the fair order, which one
 * run cannot give because it measures all of its rounds before the other
 * run starts.
 *
 * BENCH_AA_DEFAULT=1 compares two default runs instead (`inferbench run
 * --no-png`: every engine available here at the default batch sizes), the
 * pair issue 47 names: the A/A part may make at most one faster/slower call
 * in twelve cells, and in the busy part every cell must be called slower or
 * inconclusive, never "no difference" (a busy core cannot be ruled out).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { packageRoot } from '../src/core/package-info.js';
import type { CellResult, RunRecord } from '../src/core/results.js';
import { computeStatistics } from '../src/core/statistics.js';
import { renderRunComparison } from '../src/scenarios/classify/compare-report.js';
import { readRunRecord } from '../reports/read-run.js';
import { cellMatchKey, compareRuns, roundMeansOf, type RunComparison } from '../reports/run-comparison.js';

const REPEATS = Math.max(1, Number(process.env['BENCH_AA_REPEATS'] ?? 1));
/** `--rounds N` per run (a runner with rounds only); with BENCH_AA_REPEATS=k and N = 1 the rounds themselves alternate A, B, A, B. */
const ROUNDS = process.env['BENCH_AA_ROUNDS'];
const DEFAULT_PAIR = process.env['BENCH_AA_DEFAULT'] === '1';
const RUN_ARGS = [
  'run',
  ...(DEFAULT_PAIR ? [] : ['--engines', 'onnx-cpu,onnx-wasm', '--batch-sizes', '1,8']),
  '--no-png',
  ...(ROUNDS ? ['--rounds', ROUNDS] : []),
];
const CLI = join(packageRoot(), 'dist', 'src', 'cli', 'main.js');

/** Runs `inferbench run` into a fresh folder and reads its record back. */
async function cliRun(outRoot: string, tag: string): Promise<RunRecord> {
  const out = join(outRoot, tag);
  const code = await new Promise<number | null>((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, ...RUN_ARGS, '--out', out], { stdio: ['ignore', 'ignore', 'inherit'] });
    child.on('error', reject);
    child.on('exit', resolve);
  });
  if (code !== 0) throw new Error(`inferbench run (${tag}) exited with ${code}`);
  const entries = await readdir(out, { withFileTypes: true });
  for (const e of entries) {
    if (!e.isDirectory()) continue;
    try {
      return (await readRunRecord(join(out, e.name))).record;
    } catch {
      // not a run folder (model cache, history); keep looking
    }
  }
  throw new Error(`no run folder in ${out}`);
}

/** Pools several runs of one side: each cell's round means from every run, in run order (noise readings kept). */
function pooled(runs: readonly RunRecord[]): RunRecord {
  const [first] = runs;
  if (first === undefined) throw new Error('no runs to pool');
  if (runs.length === 1) return first;
  const cells = first.cells.map((cell): CellResult => {
    if (cell.state !== 'completed') return cell;
    const same = runs.map((r) => r.cells.find((c) => cellMatchKey(c) === cellMatchKey(cell))).filter((c) => c?.state === 'completed');
    const means = same.flatMap((c) => (c?.state === 'completed' ? [...roundMeansOf(c)] : []));
    const rounds = same.flatMap((c) => (c?.state === 'completed' ? [...(c.rounds ?? [])] : [])).map((r, index) => ({ ...r, index }));
    const s = computeStatistics(means);
    return { ...cell, rounds, betweenRounds: { rounds: means.length, means, mean: s.mean, stdev: s.stdev, ci95: s.ci95 } };
  });
  return { ...first, cells };
}

/** Runs A and B alternately, B with `duringB` running (a spinner), and compares the pooled sides. */
async function abRuns(outRoot: string, name: string, duringB?: () => ChildProcess): Promise<RunComparison> {
  const a: RunRecord[] = [];
  const b: RunRecord[] = [];
  for (let i = 0; i < REPEATS; i++) {
    a.push(await cliRun(outRoot, `${name}-a${i}`));
    const spinner = duringB?.();
    try {
      b.push(await cliRun(outRoot, `${name}-b${i}`));
    } finally {
      spinner?.kill();
    }
  }
  return compareRuns(pooled(a), pooled(b));
}

function printCalls(cmp: RunComparison): void {
  for (const c of cmp.cells) {
    const ratio = c.ratio === null ? '' : `B/A ${c.ratio.toFixed(3)}${c.ratioCi ? ` (${c.ratioCi.low.toFixed(3)}–${c.ratioCi.high.toFixed(3)})` : ''}`;
    console.log(`  ${c.label.padEnd(30)} rounds ${c.roundsA}/${c.roundsB}  ${ratio.padEnd(28)} ${c.call}${c.note ? ` (${c.note})` : ''}`);
  }
}

const spin = (): ChildProcess => spawn(process.execPath, ['-e', 'for(;;){}'], { stdio: 'ignore' });

const outRoot = await mkdtemp(join(tmpdir(), 'inferbench-aa-'));
try {
  console.log(`bench:aa — inferbench ${RUN_ARGS.join(' ')}; ${REPEATS} run(s) per side, alternating A, B; load ${loadavg()[0]?.toFixed(2)}`);
  const aa = await abRuns(outRoot, 'aa');
  console.log('\n1. A/A: two identical runs');
  printCalls(aa);
  const falseCalls = aa.cells.filter((c) => c.call === 'faster' || c.call === 'slower').length;
  const compared = aa.cells.filter((c) => c.call !== 'not compared').length;
  console.log(`  false faster/slower calls: ${falseCalls} of ${compared} compared cells (target: at most 1 in 12)`);

  const busy = await abRuns(outRoot, 'busy', spin);
  console.log("\n2. A/B: B with one core kept busy by `node -e 'for(;;){}'`");
  printCalls(busy);
  const cpu8 = busy.cells.find((c) => c.engine === 'onnx-cpu' && c.batchSize === 8);
  const sameCalls = busy.cells.filter((c) => c.call === 'no difference');
  console.log(`  cells called "no difference" with a core busy: ${sameCalls.length} of ${busy.cells.length} (target 0)${sameCalls.map((c) => `\n    ${c.label}`).join('')}`);
  console.log(`  onnx-cpu batch 8 called slower: ${cpu8?.call === 'slower' ? 'yes' : `NO (${cpu8?.call ?? 'missing'}${cpu8?.note ? `: ${cpu8.note}` : ''})`}`);
  console.log(`\nload average after: ${loadavg().map((l) => l.toFixed(2)).join(' ')}`);
  if (process.env['BENCH_AA_TABLE'] === '1') process.stdout.write(`\n${renderRunComparison(busy, { files: ['A', 'B'], details: true })}`);
} finally {
  await rm(outRoot, { recursive: true, force: true });
}
