/**
 * `npm run bench:cli-start`: what one short CLI command costs in CPU, the
 * unit `npm test`'s time is made of. The suite is bound by CPU on the 2-core
 * machine (test/README.md, "Where the suite's time goes"), and most of its
 * processes are short `inferbench` commands and their children, so a cost
 * added to every start (a module that loads slowly, a probe) shows up here
 * before it shows up as minutes of the suite.
 *
 * Each command runs BENCH_CLI_RUNS times (default 7), the commands taking
 * turns (A B C D A B C D …) so drift in the machine's speed hits every one
 * alike, after one untimed round that fills the cache (the generated model).
 * Figures: CPU seconds of the command and every process it reaped (user +
 * system, from /proc/self/stat's children fields), and wall seconds; the
 * median over runs, with min and max. Compare two builds by running it in
 * each checkout in turn (A B A B). Chromium is left out: its zygotes
 * leave the command's process tree, so their CPU cannot be read this way.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { timeCli } from './bench-cli-process.js';
import { median } from './bench-passes.js';

const RUNS = Number(process.env['BENCH_CLI_RUNS'] ?? 7);

/** The smallest measuring run: one cell, one round, one batch. */
const TINY = ['--engines', 'onnx-cpu', '--batch-sizes', '1', '--limit', '4', '--min-time', '0', '--min-batches', '1', '--rounds', '1', '--no-png', '--quiet'];

/** The commands timed, by name; `{out}` is the run's own output folder. */
const COMMANDS: ReadonlyArray<readonly [string, readonly string[]]> = [
  ['run (isolated: CLI + one child)', ['run', ...TINY, '--out', '{out}']],
  ['run --no-isolate', ['run', ...TINY, '--no-isolate', '--out', '{out}']],
  ['list (history store)', ['list', '--out', '{out}']],
  ['--help', ['--help']],
];

interface Sample {
  readonly cpuS: number;
  readonly wallS: number;
}

async function once(args: readonly string[], env: NodeJS.ProcessEnv): Promise<Sample> {
  const out = mkdtempSync(join(tmpdir(), 'inferbench-cli-start-'));
  const { code, wallS, cpuS } = await timeCli(args.map((a) => (a === '{out}' ? out : a)), { env });
  rmSync(out, { recursive: true, force: true });
  if (code !== 0) throw new Error(`inferbench ${args.join(' ')} exited ${code}`);
  if (cpuS === null) throw new Error('/proc/self/stat is not readable here: this bench needs Linux');
  return { cpuS, wallS };
}

function spread(values: readonly number[]): string {
  return `${median(values).toFixed(2)} (${Math.min(...values).toFixed(2)}–${Math.max(...values).toFixed(2)})`;
}

async function main(): Promise<void> {
  const cache = mkdtempSync(join(tmpdir(), 'inferbench-cli-start-cache-'));
  const env = { ...process.env, INFERBENCH_CACHE: cache };
  process.stdout.write(
    `bench:cli-start — short inferbench commands, ${RUNS} runs each in turn, after one untimed round\n` +
      // Read before the first command: the bench's own commands keep the load average near one per core.
      `${cpus()[0]?.model ?? 'cpu'}, ${cpus().length} cores; node ${process.version}; load average ${(loadavg()[0] ?? 0).toFixed(2)} before it started (above ${cpus().length / 2}: other work shares the machine)\n\n`,
  );
  try {
    for (const [, args] of COMMANDS) await once(args, env);
    const samples = COMMANDS.map(() => [] as Sample[]);
    for (let i = 0; i < RUNS; i++) for (const [k, [, args]] of COMMANDS.entries()) samples[k]?.push(await once(args, env));
    const width = Math.max(...COMMANDS.map(([name]) => name.length));
    process.stdout.write(`${'command'.padEnd(width)}  CPU s, median (min–max)  wall s, median (min–max)\n`);
    for (const [k, [name]] of COMMANDS.entries()) {
      const s = samples[k] ?? [];
      process.stdout.write(`${name.padEnd(width)}  ${spread(s.map((x) => x.cpuS)).padEnd(24)}  ${spread(s.map((x) => x.wallS))}\n`);
    }
  } finally {
    rmSync(cache, { recursive: true, force: true });
  }
}

await main();
