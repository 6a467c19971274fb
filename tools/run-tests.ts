/**
 * `npm test`'s runner: every compiled test file under dist/test, in two
 * pools that run at the same time, each file in its own process.
 *
 * - Pure tests (everything outside test/e2e/) compute in this process's
 *   child and start nothing else, so they run several at once (2 per core).
 * - End-to-end tests (test/e2e/: they spawn the CLI, Chromium, Redis or
 *   child processes) run one per core, so the processes they start still
 *   get a core each; once no pure file is left to start, they take the
 *   pure pool's free slots (up to 2 per core), so the longer e2e pool does
 *   not run on alone at half the machine (tools/test-schedule.ts).
 *
 * Files are listed explicitly (Node 20's `node --test <dir>` would take
 * every .js under a `test` folder, helpers included), each pool's longest
 * first by the wall times in tools/test-times.json (tools/test-schedule.ts),
 * so a pool's slots end together instead of one long file running alone at
 * the end. A test file added flat in test/ still runs, in the pure pool.
 * Exit code 1 when any test failed.
 * Flags: `--pure` or `--e2e` runs one pool; `--write-times` stores the wall
 * time of each file run into tools/test-times.json; any other argument is
 * a path prefix (e.g. `dist/test/engines/`) that selects files.
 */
import { availableParallelism } from 'node:os';
import { readdirSync } from 'node:fs';
import { reapedChildTicks } from '../src/core/host-noise.js';
import { join, relative, sep } from 'node:path';
import { run } from 'node:test';
import { longestFirst, mergedTimes, nextPool, readTimes, sourcePath, TIMES_FILE, writeTimes, type PoolLimits } from './test-schedule.js';
import { spec } from 'node:test/reporters';
import { Transform, type Readable } from 'node:stream';
import { packageRoot } from '../src/core/package-info.js';

const TEST_ROOT = join(packageRoot(), 'dist', 'test');

/** Every `*.test.js` below `dir`, sorted so runs list files in the same order. */
function testFiles(dir: string): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...testFiles(path));
    else if (entry.isFile() && entry.name.endsWith('.test.js')) out.push(path);
  }
  return out.sort();
}

interface PoolResult {
  readonly name: string;
  readonly files: number;
  readonly passed: number;
  readonly failed: number;
  readonly skipped: number;
  readonly todo: number;
  readonly seconds: number;
  /** Wall time per file (its process from start to end, imports included), to name what is slow and order the next run. */
  readonly fileSeconds: ReadonlyMap<string, number>;
  /** CPU seconds per file: its process and every process it waited for (see `reapedCpuSeconds`). */
  readonly fileCpu: ReadonlyMap<string, number>;
  /** Each failed test, to list again after the summaries: a CI log that keeps only its tail still names what failed. */
  readonly failures: readonly Failure[];
}

interface Failure {
  readonly file: string;
  readonly name: string;
  readonly message: string;
}

/** USER_HZ: 100 on every Linux Node runs on. */
const CLOCK_TICKS = 100;

/**
 * CPU seconds of every child this process has reaped (null off Linux). Read
 * when a file's process has ended, the increase since the last reading is
 * that file's CPU: the whole tree it started (CLI, Chromium, Redis), which
 * its wall time hides when files run side by side.
 */
function reapedCpuSeconds(): number | null {
  const ticks = reapedChildTicks();
  return ticks === null ? null : ticks / CLOCK_TICKS;
}

interface TestEvent {
  readonly type: string;
  readonly data: { readonly nesting?: number; readonly name?: string; readonly file?: string; readonly skip?: unknown; readonly todo?: unknown; readonly details?: { readonly duration_ms?: number; readonly type?: string; readonly error?: unknown } };
}

/** Prefixes every line a pool's reporter prints, so two pools' output can interleave and still be read. */
function prefixLines(label: string): Transform {
  let pending = '';
  return new Transform({
    transform(chunk: Buffer | string, _enc, done) {
      const text = pending + chunk.toString();
      const lines = text.split('\n');
      pending = lines.pop() ?? '';
      done(null, lines.map((l) => `${label} ${l}\n`).join(''));
    },
    flush(done) {
      done(null, pending ? `${label} ${pending}\n` : '');
    },
  });
}

type Pool = 'pure' | 'e2e';

interface Counts {
  passed: number;
  failed: number;
  skipped: number;
  todo: number;
  readonly failures: Failure[];
}

/** The first lines of a failed test's error: an assertion's message, or a failed file's cause. */
function failureMessage(error: unknown): string {
  const e = error as { cause?: unknown; message?: unknown } | undefined;
  const inner = e?.cause instanceof Error ? e.cause : e;
  const text = inner instanceof Error ? inner.message : String((inner as { message?: unknown } | undefined)?.message ?? inner);
  return text.split('\n').slice(0, 6).join('\n');
}

/**
 * Runs one file in its own `run()` (node:test spawns its process as before),
 * counting its tests into `counts` and its wall time into `fileSeconds`, and
 * prints it through the spec reporter with the pool's label. The run's own
 * summary (a plan and "ℹ tests 1 …" lines with no file) is dropped: the
 * runner prints one summary per pool at the end.
 */
async function runFile(file: string, label: string, counts: Counts, fileSeconds: Map<string, number>): Promise<void> {
  const stream = run({ files: [file] }) as unknown as Readable;
  const events = new Transform({
    objectMode: true,
    transform(event: TestEvent, _enc, done) {
      const { data } = event;
      if ((event.type === 'test:diagnostic' || event.type === 'test:plan') && data.file === undefined) return done();
      // A file's own test (named by its path) completes once its process has ended: its duration is the file's wall time.
      if (event.type === 'test:complete' && data.nesting === 0 && data.file !== undefined && data.name === data.file) fileSeconds.set(data.file, (data.details?.duration_ms ?? 0) / 1000);
      else if (data.details?.type !== 'suite') {
        if (event.type === 'test:fail') {
          counts.failed++;
          counts.failures.push({ file: data.file ?? file, name: data.name ?? '(unnamed)', message: failureMessage(data.details?.error) });
        }
        else if (event.type === 'test:pass') {
          if (data.skip !== undefined && data.skip !== false) counts.skipped++;
          else if (data.todo !== undefined && data.todo !== false) counts.todo++;
          else counts.passed++;
        }
      }
      done(null, event);
    },
  });
  const printed = stream.pipe(events).pipe(new spec() as unknown as Transform).pipe(prefixLines(label));
  printed.pipe(process.stdout, { end: false });
  await new Promise<void>((resolve, reject) => {
    printed.on('end', resolve);
    printed.on('error', reject);
  });
}

/** Runs both pools' files, each pool's in the order given, as `nextPool` lets them start. */
async function runPools(files: Readonly<Record<Pool, readonly string[]>>, limits: PoolLimits): Promise<PoolResult[]> {
  const pools: Pool[] = (['pure', 'e2e'] as const).filter((p) => files[p].length > 0);
  const waiting = { pure: [...files.pure], e2e: [...files.e2e] };
  const running = { pure: 0, e2e: 0 };
  const counts: Record<Pool, Counts> = { pure: { passed: 0, failed: 0, skipped: 0, todo: 0, failures: [] }, e2e: { passed: 0, failed: 0, skipped: 0, todo: 0, failures: [] } };
  const fileSeconds = { pure: new Map<string, number>(), e2e: new Map<string, number>() };
  const fileCpu = { pure: new Map<string, number>(), e2e: new Map<string, number>() };
  let lastCpu = reapedCpuSeconds();
  const started = performance.now();
  const ended: Record<Pool, number> = { pure: started, e2e: started };
  for (const p of pools) console.log(`[${p}] ${files[p].length} files, ${p === 'pure' ? limits.pure : `${limits.e2e} (${limits.e2eAlone} once no pure file is left)`} at a time`);
  await new Promise<void>((resolve, reject) => {
    const fill = (): void => {
      for (let pool = nextPool({ pure: waiting.pure.length, e2e: waiting.e2e.length }, running, limits); pool !== null; pool = nextPool({ pure: waiting.pure.length, e2e: waiting.e2e.length }, running, limits)) {
        const kind = pool;
        const file = waiting[kind].shift() as string;
        running[kind]++;
        runFile(file, `[${kind}]`, counts[kind], fileSeconds[kind]).then(() => {
          running[kind]--;
          const cpu = reapedCpuSeconds();
          if (cpu !== null && lastCpu !== null) fileCpu[kind].set(file, cpu - lastCpu);
          lastCpu = cpu;
          ended[kind] = performance.now();
          fill();
        }, reject);
      }
      if (running.pure + running.e2e === 0) resolve();
    };
    fill();
  });
  return pools.map((name) => ({ name, files: files[name].length, ...counts[name], seconds: (ended[name] - started) / 1000, fileSeconds: fileSeconds[name], fileCpu: fileCpu[name] }));
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const only = args.find((a) => a === '--pure' || a === '--e2e');
  const unknown = args.filter((a) => a.startsWith('--') && !['--pure', '--e2e', '--write-times'].includes(a));
  if (unknown.length > 0) {
    console.error(`error: unknown option ${unknown.join(' ')}\nfix: use --pure, --e2e, --write-times or a path prefix such as dist/test/engines/`);
    process.exitCode = 2;
    return;
  }
  const prefixes = args.filter((a) => !a.startsWith('--')).map((a) => join(packageRoot(), a));
  const everyFile = testFiles(TEST_ROOT);
  const { times, note } = readTimes(packageRoot());
  if (note) console.log(`note: ${note}`);
  const key = (f: string) => sourcePath(f, TEST_ROOT);
  const all = longestFirst(everyFile.filter((f) => prefixes.length === 0 || prefixes.some((p) => f.startsWith(p))), times, key);
  const e2eRoot = join(TEST_ROOT, 'e2e') + sep;
  const e2e = all.filter((f) => f.startsWith(e2eRoot));
  const pure = all.filter((f) => !f.startsWith(e2eRoot));
  const cores = availableParallelism();
  const pools = await runPools(
    { pure: only === '--e2e' ? [] : pure, e2e: only === '--pure' ? [] : e2e },
    { pure: Math.max(2, cores * 2), e2e: Math.max(1, cores), e2eAlone: Math.max(2, cores * 2) },
  );
  let failed = 0;
  console.log('');
  for (const p of pools) {
    if (!p) continue;
    failed += p.failed;
    console.log(`${p.name}: ${p.files} files, ${p.passed} passed, ${p.failed} failed, ${p.skipped} skipped, ${p.todo} todo in ${p.seconds.toFixed(1)} s`);
  }
  const slowest = pools
    .flatMap((p) => (p ? [...p.fileSeconds] : []))
    .sort((a, b) => b[1] - a[1])
    .slice(0, 10);
  if (slowest.length > 0) {
    console.log('slowest files (wall time of each file):');
    for (const [file, s] of slowest) console.log(`  ${s.toFixed(1).padStart(7)} s  ${relative(packageRoot(), file)}`);
  }
  const cpu = pools.flatMap((p) => [...p.fileCpu]);
  if (cpu.length > 0) {
    const total = cpu.reduce((sum, [, s]) => sum + s, 0);
    console.log(`most CPU (each file's process tree; ${total.toFixed(0)} CPU-s over all files):`);
    for (const [file, s] of cpu.sort((a, b) => b[1] - a[1]).slice(0, 40)) console.log(`  ${s.toFixed(1).padStart(7)} s  ${relative(packageRoot(), file)}`);
  }
  const failures = pools.flatMap((p) => p.failures);
  if (failures.length > 0) {
    console.log(`failed (${failures.length}):`);
    for (const f of failures) console.log([`  ✖ ${relative(packageRoot(), f.file)}: ${f.name}`, ...f.message.split('\n').filter((l) => l.trim() !== '').map((l) => `      ${l}`)].join('\n'));
  }
  if (args.includes('--write-times')) {
    const measured = new Map(pools.flatMap((p) => (p ? [...p.fileSeconds].map(([f, s]) => [key(f), s] as const) : [])));
    writeTimes(packageRoot(), mergedTimes(times, measured, new Set(everyFile.map(key))));
    console.log(`wrote ${measured.size} files' wall times to ${TIMES_FILE}`);
  }
  process.exitCode = failed > 0 ? 1 : 0;
}

await main();
