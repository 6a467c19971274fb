/**
 * `npm test`'s runner: every compiled test file under dist/test, in two
 * pools that run at the same time.
 *
 * - Pure tests (everything outside test/e2e/) compute in this process's
 *   child and start nothing else, so they run several at once.
 * - End-to-end tests (test/e2e/: they spawn the CLI, Chromium, Redis or
 *   child processes) mostly wait on those processes; they run one per core,
 *   so the processes they start still get a core each.
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
import { join, relative, sep } from 'node:path';
import { run } from 'node:test';
import { longestFirst, mergedTimes, readTimes, sourcePath, TIMES_FILE, writeTimes } from './test-schedule.js';
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
}

interface TestEvent {
  readonly type: string;
  readonly data: { readonly nesting?: number; readonly name?: string; readonly file?: string; readonly skip?: unknown; readonly todo?: unknown; readonly details?: { readonly duration_ms?: number; readonly type?: string } };
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

async function runPool(name: string, files: readonly string[], concurrency: number): Promise<PoolResult> {
  const started = performance.now();
  const counts = { passed: 0, failed: 0, skipped: 0, todo: 0 };
  const fileSeconds = new Map<string, number>();
  if (files.length === 0) return { name, files: 0, ...counts, seconds: 0, fileSeconds };
  console.log(`[${name}] ${files.length} files, ${concurrency} at a time`);
  const stream = run({ files: [...files], concurrency }) as unknown as Readable;
  stream.on('data', (event: TestEvent) => {
    const { data } = event;
    // A file's own test (named by its path) completes once its process has ended: its duration is the file's wall time.
    if (event.type === 'test:complete' && data.nesting === 0 && data.file !== undefined && data.name === data.file) {
      fileSeconds.set(data.file, (data.details?.duration_ms ?? 0) / 1000);
      return;
    }
    if (data.details?.type === 'suite') return;
    if (event.type === 'test:fail') counts.failed++;
    else if (event.type === 'test:pass') {
      if (data.skip !== undefined && data.skip !== false) counts.skipped++;
      else if (data.todo !== undefined && data.todo !== false) counts.todo++;
      else counts.passed++;
    }
  });
  const printed = stream.pipe(new spec() as unknown as Transform).pipe(prefixLines(`[${name}]`));
  printed.pipe(process.stdout, { end: false });
  await new Promise<void>((resolve, reject) => {
    printed.on('end', resolve);
    printed.on('error', reject);
  });
  return { name, files: files.length, ...counts, seconds: (performance.now() - started) / 1000, fileSeconds };
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
  const pools = await Promise.all([
    only === '--e2e' ? null : runPool('pure', pure, Math.max(2, cores * 2)),
    only === '--pure' ? null : runPool('e2e', e2e, Math.max(1, cores)),
  ]);
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
  if (args.includes('--write-times')) {
    const measured = new Map(pools.flatMap((p) => (p ? [...p.fileSeconds].map(([f, s]) => [key(f), s] as const) : [])));
    writeTimes(packageRoot(), mergedTimes(times, measured, new Set(everyFile.map(key))));
    console.log(`wrote ${measured.size} files' wall times to ${TIMES_FILE}`);
  }
  process.exitCode = failed > 0 ? 1 : 0;
}

await main();
