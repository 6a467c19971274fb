/**
 * Which test files `npm test` may run several to a process, and how it
 * deals them into groups (tools/run-tests.ts). One process per file pays
 * Node's start, node:test's harness and the file's imports (tfjs,
 * onnxruntime, duckdb, the CLI helpers …) again for every file; a group
 * pays them once (`npm run bench:test-grouping` measured 46.6 → 17.3 CPU-s
 * for 48 pure files). End-to-end files are grouped too: most only start
 * the CLI and read what it wrote, so their own process is mostly that
 * fixed cost.
 *
 * Files in one process share its globals, so a file that changes
 * process-wide state (an env var, the working directory, a process handler,
 * a patched global, tfjs's backend or its tensor counts) or reads the
 * process's own children may break the next file or be broken by it. Such
 * files run alone, as before: they are listed in tools/test-alone.json
 * with the reason. "Safe" is checked, not guessed:
 * test/tools/test-alone-list.test.ts fails when a test file matches one of
 * `UNSAFE_PATTERNS` and is not listed, or when a listed file is gone.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

/** The committed list of test files that must run alone: source path → why. */
export const ALONE_FILE = join('tools', 'test-alone.json');

/** What a test source does that leaks into the next file of its process, and the reason the alone list gives for it. */
export const UNSAFE_PATTERNS: ReadonlyArray<{ readonly pattern: RegExp; readonly reason: string }> = [
  { pattern: /process\.env(\.[A-Za-z_$][\w$]*|\[[^\]]+\])\s*(=(?!=)|\?\?=|\|\|=)|delete\s+process\.env|Object\.assign\(\s*process\.env/, reason: 'sets process.env' },
  { pattern: /process\.chdir\(/, reason: 'changes the working directory' },
  { pattern: /process\.(on|once|prependListener|addListener|removeAllListeners)\(|process\.exitCode\s*=|process\.umask\(/, reason: 'installs a process-wide handler or exit code' },
  { pattern: /(^|[^.\w])mock\.(method|property|getter|setter|timers|module)\b/m, reason: 'mocks a global outside a test context' },
  { pattern: /globalThis\.[A-Za-z_$][\w$]*\s*=(?!=)/, reason: 'sets a global' },
  { pattern: /from '[^']*tfjs-node[^']*'|setBackend\(|removeBackend\(|tf\.memory\(\)|tf\.engine\(\)|numTensors|tf\.env\(\)|ENV\.set/, reason: 'loads tfjs-node, or sets or counts tfjs backends and tensors (process-wide)' },
  { pattern: /(descendantsOf|childrenOf)\(process\.pid|chromiumChildren\(/, reason: "reads its own process's children (an earlier file's would be among them)" },
  { pattern: /markIsolatedProcess\(/, reason: 'marks its process an isolated child (process-wide: every later probe in it takes the child path)' },
];

/** The reasons a test source must run alone by `UNSAFE_PATTERNS` (empty: it may share a process). */
export function unsafeReasons(source: string): string[] {
  return UNSAFE_PATTERNS.filter((p) => p.pattern.test(source)).map((p) => p.reason);
}

/**
 * The alone list (source path → reason). Missing or unreadable, the runner
 * cannot tell safe files from unsafe ones, so it says so and runs every
 * file alone: the old behaviour, slower but never wrong.
 */
export function readAlone(root: string): { readonly alone: ReadonlyMap<string, string> | null; readonly note: string | null } {
  const path = join(root, ALONE_FILE);
  if (!existsSync(path)) return { alone: null, note: `${ALONE_FILE} is missing: every test file runs in its own process` };
  try {
    const raw = JSON.parse(readFileSync(path, 'utf8')) as unknown;
    if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) throw new Error('not an object of file: reason');
    return { alone: new Map(Object.entries(raw).map(([k, v]) => [k, String(v)])), note: null };
  } catch (err) {
    return { alone: null, note: `${ALONE_FILE} is unreadable (${(err as Error).message}): every test file runs in its own process` };
  }
}

/**
 * `files` (longest first) dealt into at most `count` groups by the "longest
 * processing time" rule: each file goes to the group with the least
 * expected time so far, so the groups end close together. A file with no
 * measured time counts as `unknownSeconds`. Groups come back longest first,
 * each keeping the order its files were dealt in; empty groups are dropped.
 */
export function dealGroups(files: readonly string[], expected: (file: string) => number | undefined, count: number, unknownSeconds = 1): string[][] {
  const groups = Array.from({ length: Math.max(1, count) }, () => ({ files: [] as string[], seconds: 0 }));
  for (const f of files) {
    const target = groups.reduce((min, g) => (g.seconds < min.seconds ? g : min));
    target.files.push(f);
    target.seconds += expected(f) ?? unknownSeconds;
  }
  return groups.filter((g) => g.files.length > 0).sort((a, b) => b.seconds - a.seconds).map((g) => g.files);
}

/**
 * `files` (longest first) cut, in that order, into groups of at most
 * `maxFiles` files and `maxSeconds` expected seconds (a file longer than
 * that is a group of its own). The e2e pool's way: its groups hold a slot
 * while their files wait on the processes they start, so the long files
 * keep to small groups at the start and the pool ends on groups of the
 * shortest files, with every slot busy until near the end. (Dealt evenly,
 * as `dealGroups` does, every group is as long as the last one, and the
 * pool's last minute ran on one slot.) A file with no measured time counts
 * as `unknownSeconds`.
 */
export function chunkGroups(files: readonly string[], expected: (file: string) => number | undefined, maxFiles: number, maxSeconds: number, unknownSeconds = 1): string[][] {
  const groups: string[][] = [];
  let current: string[] = [];
  let seconds = 0;
  for (const f of files) {
    const t = expected(f) ?? unknownSeconds;
    if (current.length > 0 && (current.length >= maxFiles || seconds + t > maxSeconds)) {
      groups.push(current);
      current = [];
      seconds = 0;
    }
    current.push(f);
    seconds += t;
  }
  if (current.length > 0) groups.push(current);
  return groups;
}

/**
 * The entry file of a group: each test file in a `describe` named by its
 * path, imported inside it, so node:test (20) nests the file's tests, hooks
 * included, under that suite and each file is still reported and counted
 * apart. Files run one after another, in the order given.
 */
export function groupEntry(files: readonly string[]): string {
  return [
    '// Written by tools/run-tests.ts: one process for several test files (tools/test-groups.ts).',
    "import { describe } from 'node:test';",
    ...files.map((f) => `describe(${JSON.stringify(f)}, async () => { await import(${JSON.stringify(pathToFileURL(f).href)}); });`),
  ].join('\n') + '\n';
}

/** Every `*.test.js` below `dir`, sorted so runs list files in the same order (the runner and bench:test-grouping list the same files). */
export function testFiles(dir: string): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...testFiles(path));
    else if (entry.isFile() && entry.name.endsWith('.test.js')) out.push(path);
  }
  return out.sort();
}
