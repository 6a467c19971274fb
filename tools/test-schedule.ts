/**
 * The order `npm test` starts its files in (tools/run-tests.ts). A pool that
 * starts its files in name order can meet its longest file last and run it
 * alone while the other slots stand idle; starting the longest first (the
 * "longest processing time" rule) makes a pool's slots end close together.
 * The expected time of each file is the wall time measured on a full run,
 * committed in tools/test-times.json and refreshed with
 * `node dist/tools/run-tests.js --write-times`.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';

/**
 * How many files of each pool may run at once. Pure files compute in their
 * own process and nothing else (`pure`, 2 per core); end-to-end files start
 * the CLI, Chromium or Redis, whose processes need cores too (`e2e`, 1 per
 * core). Once no pure file is left to start, the e2e pool takes over the
 * pure pool's free slots up to `e2eAlone`: e2e files often wait (on a
 * child, a page, a timer), and the slots would otherwise stand idle while
 * the e2e pool, the longer one, runs on alone. The total never exceeds
 * `pure + e2e`, the number of test processes the machine already ran side
 * by side while both pools had work.
 */
export interface PoolLimits {
  readonly pure: number;
  readonly e2e: number;
  readonly e2eAlone: number;
}

/** The pool whose next file may start now, or null when none may (e2e first: its files are the longer ones). */
export function nextPool(waiting: { readonly pure: number; readonly e2e: number }, running: { readonly pure: number; readonly e2e: number }, limits: PoolLimits): 'pure' | 'e2e' | null {
  const e2eLimit = waiting.pure === 0 ? Math.max(limits.e2e, Math.min(limits.e2eAlone, limits.pure + limits.e2e - running.pure)) : limits.e2e;
  if (waiting.e2e > 0 && running.e2e < e2eLimit) return 'e2e';
  if (waiting.pure > 0 && running.pure < limits.pure) return 'pure';
  return null;
}

/** Seconds per test file, keyed by its source path (`test/e2e/tools/pack-offline-run.test.ts`). */
export type TestTimes = Readonly<Record<string, number>>;

/** Where the measured times live, from the package root. */
export const TIMES_FILE = join('tools', 'test-times.json');

/** `dist/test/x/y.test.js` under `testRoot` → `test/x/y.test.ts`: the name a reader finds in the tree. */
export function sourcePath(file: string, testRoot: string): string {
  return ['test', ...relative(testRoot, file).split(sep)].join('/').replace(/\.js$/, '.ts');
}

/**
 * `files` ordered longest expected time first. A file with no measured time
 * (new since the last `--write-times`) goes before all of them: its time is
 * unknown, and starting it early can only shorten the tail. Ties keep name
 * order, so two runs list the same files in the same order.
 */
export function longestFirst(files: readonly string[], times: TestTimes, key: (file: string) => string): string[] {
  const expected = (f: string): number => times[key(f)] ?? Number.POSITIVE_INFINITY;
  return [...files].sort((a, b) => expected(b) - expected(a) || (a < b ? -1 : a > b ? 1 : 0));
}

/**
 * The times file after a run: the measured files' new times, the others' old
 * ones, and no entry for a file that no longer exists (`existing`). Keys
 * sorted and seconds to 0.1 s, so a refresh is a readable diff.
 */
export function mergedTimes(old: TestTimes, measured: ReadonlyMap<string, number>, existing: ReadonlySet<string>): Record<string, number> {
  const all = new Map<string, number>(Object.entries(old));
  for (const [k, s] of measured) all.set(k, s);
  const out: Record<string, number> = {};
  for (const k of [...all.keys()].filter((k) => existing.has(k)).sort()) out[k] = Math.round((all.get(k) as number) * 10) / 10;
  return out;
}

/**
 * The committed times. Missing or unreadable, there are none (every file
 * then counts as unknown, in name order) and `note` says why, for the runner
 * to print: a damaged times file costs the order, never the run.
 */
export function readTimes(root: string): { readonly times: TestTimes; readonly note: string | null } {
  const path = join(root, TIMES_FILE);
  if (!existsSync(path)) return { times: {}, note: `${TIMES_FILE} is missing: files start in name order (node dist/tools/run-tests.js --write-times writes it)` };
  try {
    const raw = JSON.parse(readFileSync(path, 'utf8')) as unknown;
    if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) throw new Error('not an object of file: seconds');
    const times = Object.fromEntries(Object.entries(raw).filter((e): e is [string, number] => typeof e[1] === 'number' && Number.isFinite(e[1])));
    return { times, note: null };
  } catch (err) {
    return { times: {}, note: `${TIMES_FILE} is unreadable (${(err as Error).message}): files start in name order; --write-times rewrites it` };
  }
}

export function writeTimes(root: string, times: TestTimes): void {
  writeFileSync(join(root, TIMES_FILE), JSON.stringify(times, null, 2) + '\n');
}
