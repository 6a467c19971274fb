/**
 * `npm test`'s runner: every compiled test file under dist/test, in two
 * pools that run at the same time, most files several to a process.
 *
 * - Pure tests (everything outside test/e2e/) compute in this process's
 *   child and start nothing else, so they run several at once (2 per core).
 * - End-to-end tests (test/e2e/: they spawn the CLI, Chromium, Redis or
 *   child processes) run one per core, so the processes they start still
 *   get a core each; once no pure file is left to start, they take the
 *   pure pool's free slots (up to 2 per core), so the longer e2e pool does
 *   not run on alone at half the machine (tools/test-schedule.ts).
 *
 * - Files share processes: those not in tools/test-alone.json are dealt
 *   into groups (pure: 2 per core, dealt evenly; e2e: a few files each,
 *   the short ones last), each group one process that imports its files
 *   one after another (tools/test-groups.ts), so Node, node:test and the
 *   heavy imports are paid once per group, not once per file. A listed
 *   file (it changes process-wide state) runs alone. A group's crash or
 *   hang fails each unfinished file by name.
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
import { availableParallelism, tmpdir } from 'node:os';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { reapedChildSeconds } from '../src/core/host-noise.js';
import { join, relative, sep } from 'node:path';
import { run } from 'node:test';
import { longestFirst, mergedTimes, nextPool, readTimes, sourcePath, TIMES_FILE, writeTimes, type PoolLimits, type TestTimes } from './test-schedule.js';
import { ALONE_FILE, chunkGroups, dealGroups, groupEntry, readAlone, testFiles } from './test-groups.js';
import { spec } from 'node:test/reporters';
import { Transform, type Readable } from 'node:stream';
import { packageRoot } from '../src/core/package-info.js';
import { quietOrtTelemetry } from '../src/core/library-logs.js';
import { useTestCache } from '../test/helpers/test-cache.js';

/** dist/test; `INFERBENCH_TEST_ROOT` points the runner at another tree (test/e2e/tools/run-tests-groups.test.ts runs it on files made to crash and hang). */
const TEST_ROOT = process.env.INFERBENCH_TEST_ROOT ?? join(packageRoot(), 'dist', 'test');


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
  /** CPU seconds per file: its process and every process it waited for (see `reapedChildSeconds` in src/core/host-noise.ts). */
  readonly fileCpu: ReadonlyMap<string, number>;
  /** Each failed test, to list again after the summaries: a CI log that keeps only its tail still names what failed. */
  readonly failures: readonly Failure[];
}

interface Failure {
  readonly file: string;
  readonly name: string;
  readonly message: string;
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
 * With no test event (a test ending, a line of output) for this long, a
 * group's process counts as hung: it is stopped and its unfinished files
 * fail by name. Far above any one test's time (the longest pure ones take
 * about a minute on a loaded machine, the longest e2e one, ten engine
 * opens of an 86 MiB model, under three), so only a real hang reaches it.
 * `INFERBENCH_TEST_GROUP_IDLE_S` sets it (the runner's own test uses 10 s).
 */
const GROUP_IDLE_MS = ((s) => (Number.isFinite(s) && s > 0 ? s : 600) * 1000)(Number(process.env.INFERBENCH_TEST_GROUP_IDLE_S ?? 600));

/** One thing a pool starts: a file in its own process, or a group of files in one process (tools/test-groups.ts). */
type Item = { readonly kind: 'file'; readonly file: string } | { readonly kind: 'group'; readonly entry: string; readonly files: readonly string[]; readonly name: string };

/**
 * Runs one item in its own `run()` (node:test spawns its process), counting
 * its tests into `counts` and each file's wall time into `fileSeconds`, and
 * prints it through the spec reporter with the pool's label. The run's own
 * summary (a plan and "ℹ tests 1 …" lines with no file) is dropped: the
 * runner prints one summary per pool at the end.
 *
 * A group's files are the `describe` suites at its top (named by their
 * paths); their own duration is each file's time inside the group. A file
 * whose suite never ended (its process crashed, exited, or hung and was
 * stopped after GROUP_IDLE_MS without an event) fails by name, with the
 * group's files listed: a lost file is never a silent pass.
 */
async function runItem(item: Item, label: string, counts: Counts, fileSeconds: Map<string, number>): Promise<void> {
  const stop = new AbortController();
  const group = item.kind === 'group' ? new Set(item.files) : null;
  const finished = new Set<string>();
  let groupError: string | null = null;
  let stoppedIdle = false;
  let idle: NodeJS.Timeout | undefined;
  const watch = (): void => {
    if (!group) return;
    clearTimeout(idle);
    idle = setTimeout(() => {
      stoppedIdle = true;
      stop.abort();
    }, GROUP_IDLE_MS);
  };
  watch();
  const stream = run({ files: [item.kind === 'group' ? item.entry : item.file], signal: stop.signal }) as unknown as Readable;
  const events = new Transform({
    objectMode: true,
    transform(event: TestEvent, _enc, done) {
      const { data } = event;
      watch();
      if ((event.type === 'test:diagnostic' || event.type === 'test:plan') && data.file === undefined) return done();
      const fileSuite = group !== null && data.nesting === 0 && data.name !== undefined && group.has(data.name);
      if (group && item.kind === 'group' && data.nesting === 0 && data.name === item.entry) {
        // The group's own test: its failure is reported below, per file, not as one more test.
        if (event.type === 'test:fail') groupError = failureMessage(data.details?.error);
      } else if (fileSuite) {
        const file = data.name as string;
        if (event.type === 'test:complete') fileSeconds.set(file, (data.details?.duration_ms ?? 0) / 1000);
        if (event.type === 'test:pass' || event.type === 'test:fail') finished.add(file);
        // A file's suite fails on its own (not just because a test in it failed) when its import or a hook threw.
        const failureType = (data.details?.error as { failureType?: string } | undefined)?.failureType;
        if (event.type === 'test:fail' && failureType !== 'subtestsFailed') {
          counts.failed++;
          counts.failures.push({ file, name: '(the file itself: its import or a hook failed)', message: failureMessage(data.details?.error) });
        }
      }
      // A file's own test (named by its path) completes once its process has ended: its duration is the file's wall time.
      else if (event.type === 'test:complete' && data.nesting === 0 && data.file !== undefined && data.name === data.file) fileSeconds.set(data.file, (data.details?.duration_ms ?? 0) / 1000);
      else if (data.details?.type !== 'suite') {
        if (event.type === 'test:fail') {
          counts.failed++;
          counts.failures.push({ file: data.file ?? (item.kind === 'file' ? item.file : item.entry), name: data.name ?? '(unnamed)', message: failureMessage(data.details?.error) });
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
  try {
    await new Promise<void>((resolve, reject) => {
      printed.on('end', resolve);
      printed.on('error', reject);
    });
  } finally {
    clearTimeout(idle);
  }
  if (item.kind !== 'group') return;
  // Set in the stream's callbacks, which TypeScript's narrowing does not see.
  const groupFailure = groupError as string | null;
  const lost = item.files.filter((f) => !finished.has(f));
  const why = stoppedIdle ? `no test event for ${GROUP_IDLE_MS / 1000} s: the group's process was stopped as hung` : `its process ended early${groupFailure ? `: ${groupFailure}` : ''}`;
  const members = `files of ${item.name}: ${item.files.map((f) => relative(packageRoot(), f)).join(', ')}`;
  for (const file of lost) {
    counts.failed++;
    counts.failures.push({ file, name: '(the file did not finish in its group)', message: `${why}\n${members}` });
    process.stdout.write(`${label} ✖ ${relative(packageRoot(), file)} did not finish in ${item.name}: ${why.split('\n')[0]}\n`);
  }
  if (lost.length === 0 && groupFailure !== null) {
    // Every file ended, yet the process failed (an exit code set, an error after the last test): name the group's files.
    counts.failed++;
    counts.failures.push({ file: item.entry, name: `(${item.name} failed after its files' tests)`, message: `${groupFailure}\n${members}` });
    process.stdout.write(`${label} ✖ ${item.name} failed after its files' tests: ${groupFailure.split('\n')[0]}\n`);
  }
}

/**
 * How e2e files share processes (`chunkGroups`): at most six files and 90
 * expected seconds to a group. An e2e file mostly waits on the processes it
 * starts, so a group holds one of the pool's slots for the sum of its
 * files' wall times; six to a group saves five process starts in six, and
 * 90 s keeps every group shorter than the longest files (which run in
 * groups of their own), so the pool's slots end close together.
 */
const E2E_GROUP_FILES = 6;
const E2E_GROUP_SECONDS = 90;

/**
 * A pool's items: the files of tools/test-alone.json (or all, when that
 * list cannot be read) each alone, the others in groups (`deal`, given the
 * files longest first and their expected times), each group's entry
 * written under `dir`. Longest first by the expected times, a group's
 * being the sum of its files'.
 */
function poolItems(pool: Pool, files: readonly string[], alone: ReadonlyMap<string, string> | null, times: TestTimes, key: (f: string) => string, deal: (files: readonly string[], expected: (f: string) => number | undefined) => string[][], dir: string): { readonly items: Item[]; readonly alone: number; readonly groups: number } {
  const shared = alone === null ? [] : files.filter((f) => !alone.has(key(f)));
  const groups = deal(shared, (f) => times[key(f)]);
  const expected = (f: string): number => times[key(f)] ?? Number.POSITIVE_INFINITY;
  const items: Array<{ readonly item: Item; readonly seconds: number }> = [
    ...groups.map((g, i) => {
      const entry = join(dir, `${pool}-group-${i + 1}.test.mjs`);
      writeFileSync(entry, groupEntry(g));
      return { item: { kind: 'group' as const, entry, files: g, name: `${pool} group ${i + 1} of ${groups.length}` }, seconds: g.reduce((sum, f) => sum + (times[key(f)] ?? 1), 0) };
    }),
    ...files.filter((f) => !shared.includes(f)).map((file) => ({ item: { kind: 'file' as const, file }, seconds: expected(file) })),
  ];
  items.sort((a, b) => b.seconds - a.seconds);
  return { items: items.map((i) => i.item), alone: files.length - shared.length, groups: groups.length };
}

/** How a pool's files were dealt, for its first line: "N files in G groups of one process each, A alone". */
function groupNote(files: number, dealt: { readonly alone: number; readonly groups: number }): string {
  return dealt.groups > 0 ? `: ${files - dealt.alone} files in ${dealt.groups} groups of one process each, ${dealt.alone} alone (${ALONE_FILE})` : '';
}

/** What the CPU list and messages call an item: a file's path, or a group's name and size. */
function itemName(item: Item): string {
  return item.kind === 'file' ? relative(packageRoot(), item.file) : `${item.name} (${item.files.length} files in one process)`;
}

/** Runs both pools' items, each pool's in the order given, as `nextPool` lets them start. */
async function runPools(files: Readonly<Record<Pool, readonly Item[]>>, fileCount: Readonly<Record<Pool, number>>, limits: PoolLimits, notes: Readonly<Record<Pool, string>>): Promise<PoolResult[]> {
  const pools: Pool[] = (['pure', 'e2e'] as const).filter((p) => files[p].length > 0);
  const waiting = { pure: [...files.pure], e2e: [...files.e2e] };
  const running = { pure: 0, e2e: 0 };
  const counts: Record<Pool, Counts> = { pure: { passed: 0, failed: 0, skipped: 0, todo: 0, failures: [] }, e2e: { passed: 0, failed: 0, skipped: 0, todo: 0, failures: [] } };
  const fileSeconds = { pure: new Map<string, number>(), e2e: new Map<string, number>() };
  const fileCpu = { pure: new Map<string, number>(), e2e: new Map<string, number>() };
  let lastCpu = reapedChildSeconds();
  const started = performance.now();
  const ended: Record<Pool, number> = { pure: started, e2e: started };
  for (const p of pools) console.log(`[${p}] ${fileCount[p]} files, ${p === 'pure' ? `${limits.pure} processes at a time` : `${limits.e2e} (${limits.e2eAlone} once no pure file is left) at a time`}${notes[p]}`);
  await new Promise<void>((resolve, reject) => {
    const fill = (): void => {
      for (let pool = nextPool({ pure: waiting.pure.length, e2e: waiting.e2e.length }, running, limits); pool !== null; pool = nextPool({ pure: waiting.pure.length, e2e: waiting.e2e.length }, running, limits)) {
        const kind = pool;
        const item = waiting[kind].shift() as Item;
        running[kind]++;
        runItem(item, `[${kind}]`, counts[kind], fileSeconds[kind]).then(() => {
          running[kind]--;
          const cpu = reapedChildSeconds();
          if (cpu !== null && lastCpu !== null) fileCpu[kind].set(itemName(item), cpu - lastCpu);
          lastCpu = cpu;
          ended[kind] = performance.now();
          fill();
        }, reject);
      }
      if (running.pure + running.e2e === 0) resolve();
    };
    fill();
  });
  return pools.map((name) => ({ name, files: fileCount[name], ...counts[name], seconds: (ended[name] - started) / 1000, fileSeconds: fileSeconds[name], fileCpu: fileCpu[name] }));
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
  // Every test process shares the test cache (test/helpers/test-cache.ts): a test that never sets INFERBENCH_CACHE (an in-process
  // engine probe that remembers its answer, a generated model) still never writes into the user's own cache, and finds what others made.
  if (process.env['INFERBENCH_CACHE'] === undefined) useTestCache();
  // Test files that import onnxruntime-node themselves, before any engine module has set the switch, would each leave ORT's
  // empty /tmp/mat-debug-<pid>.log (see quietOrtTelemetry). The telemetry test sets its own value in its own children.
  quietOrtTelemetry();
  const cores = availableParallelism();
  const limits = { pure: Math.max(2, cores * 2), e2e: Math.max(1, cores), e2eAlone: Math.max(2, cores * 2) };
  const pureFiles = only === '--e2e' ? [] : pure;
  const e2eFiles = only === '--pure' ? [] : e2e;
  const dir = mkdtempSync(join(tmpdir(), 'inferbench-test-groups-'));
  let pools: PoolResult[];
  try {
    const { alone, note: aloneNote } = readAlone(packageRoot());
    if (aloneNote) console.log(`note: ${aloneNote}`);
    const pureDealt = poolItems('pure', pureFiles, alone, times, key, (f, expected) => dealGroups(f, expected, Math.min(limits.pure, Math.ceil(f.length / 2))), dir);
    const e2eDealt = poolItems('e2e', e2eFiles, alone, times, key, (f, expected) => chunkGroups(f, expected, E2E_GROUP_FILES, E2E_GROUP_SECONDS), dir);
    pools = await runPools(
      { pure: pureDealt.items, e2e: e2eDealt.items },
      { pure: pureFiles.length, e2e: e2eFiles.length },
      limits,
      { pure: groupNote(pureFiles.length, pureDealt), e2e: groupNote(e2eFiles.length, e2eDealt) },
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
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
    console.log('slowest files (wall time of each file; a grouped file\'s time inside its group\'s process):');
    for (const [file, s] of slowest) console.log(`  ${s.toFixed(1).padStart(7)} s  ${relative(packageRoot(), file)}`);
  }
  const cpu = pools.flatMap((p) => [...p.fileCpu]);
  if (cpu.length > 0) {
    const total = cpu.reduce((sum, [, s]) => sum + s, 0);
    console.log(`most CPU (each process tree: a file alone, or a group of files as one; ${total.toFixed(0)} CPU-s over all):`);
    for (const [name, s] of cpu.sort((a, b) => b[1] - a[1]).slice(0, 40)) console.log(`  ${s.toFixed(1).padStart(7)} s  ${name}`);
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
