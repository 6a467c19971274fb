/**
 * `npm run bench:test-grouping -- [prefix …]`: what running test files
 * several to a process saves. A file in its own node:test process pays
 * Node's start, node:test's harness and its imports (tfjs, onnxruntime,
 * duckdb, the CLI helpers …) again; tools/run-tests.ts groups files to pay
 * them once. This measures the same files both ways, one after another on
 * this machine:
 *
 * - each: one `run({ files: [file] })` per file, as the runner does;
 * - grouped: one process whose entry puts each file in a `describe(file)`
 *   and imports it there (node:test 20 nests the file's tests under that
 *   suite, so each file could still be reported and counted apart).
 *
 * Figure: CPU-s (user + sys) of each arm's whole process tree, read from
 * /proc/self/stat's reaped-children CPU after the arm's child has ended;
 * scope: the files under the prefixes given (default dist/test/core/), e2e
 * files only where a prefix is under dist/test/e2e/ (they start the CLI,
 * whose processes the figure counts too), and never the files
 * tools/test-alone.json keeps alone; estimator: one run of each arm,
 * so run it twice or more and compare like with like. Tests passed and failed
 * are printed per arm, so a grouped file that fails only beside another
 * (a leaked env var, backend, global) shows as a difference.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, sep } from 'node:path';
import { pathToFileURL } from 'node:url';
import { run } from 'node:test';
import { reapedChildSeconds } from '../src/core/host-noise.js';
import { packageRoot } from '../src/core/package-info.js';
import { readAlone, testFiles } from './test-groups.js';
import { sourcePath } from './test-schedule.js';


/** Runs `files` through node:test (one `run()` per entry in `entries`), counting passed and failed tests (suites not counted). */
async function counted(entries: readonly string[]): Promise<{ passed: number; failed: number; failures: string[] }> {
  let passed = 0;
  let failed = 0;
  const failures: string[] = [];
  for (const entry of entries) {
    for await (const e of run({ files: [entry] }) as AsyncIterable<{ type: string; data: { name?: string; details?: { type?: string } } }>) {
      if (e.data.details?.type === 'suite') continue;
      if (e.type === 'test:pass') passed++;
      if (e.type === 'test:fail') {
        failed++;
        failures.push(e.data.name ?? '(unnamed)');
      }
    }
  }
  return { passed, failed, failures };
}

/** The child of one arm: runs the files and prints its counts as JSON on the last line. */
async function arm(mode: string, files: string[]): Promise<void> {
  let entries = files;
  let dir: string | null = null;
  if (mode === '--grouped') {
    dir = mkdtempSync(join(tmpdir(), 'inferbench-grouping-'));
    const entry = join(dir, 'group.test.mjs');
    writeFileSync(entry, ["import { describe } from 'node:test';", ...files.map((f) => `describe(${JSON.stringify(f)}, async () => { await import(${JSON.stringify(pathToFileURL(f).href)}); });`)].join('\n') + '\n');
    entries = [entry];
  }
  try {
    console.log(JSON.stringify(await counted(entries)));
  } finally {
    if (dir) rmSync(dir, { recursive: true, force: true });
  }
}

async function main(): Promise<void> {
  const [first, ...rest] = process.argv.slice(2);
  if (first === '--each' || first === '--grouped') return arm(first, rest);
  const root = packageRoot();
  const prefixes = (first === undefined ? ['dist/test/core/'] : [first, ...rest]).map((p) => join(root, p));
  const testRoot = join(root, 'dist', 'test');
  const e2e = join(testRoot, 'e2e') + sep;
  const e2eAsked = prefixes.some((p) => p.startsWith(e2e));
  // The files tools/test-alone.json keeps alone are left out of both arms: npm test never groups them.
  const { alone } = readAlone(root);
  const files = testFiles(testRoot).filter((f) => (e2eAsked || !f.startsWith(e2e)) && prefixes.some((p) => f.startsWith(p)) && !alone?.has(sourcePath(f, testRoot)));
  if (files.length === 0) {
    console.error(`error: no test file under ${prefixes.join(', ')}\nfix: build first (npm run build) and give a prefix such as dist/test/reports/ or dist/test/e2e/launchers/`);
    process.exitCode = 2;
    return;
  }
  console.log(`${files.length} test files, each arm run once, one after the other; CPU-s = user + sys of the arm's process tree`);
  for (const mode of ['--each', '--grouped']) {
    const before = reapedChildSeconds();
    const started = performance.now();
    const child = spawnSync(process.execPath, [process.argv[1] as string, mode, ...files], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
    const after = reapedChildSeconds();
    const cpu = before === null || after === null ? 'n/a (not Linux)' : `${(after - before).toFixed(1)} CPU-s`;
    const last = child.stdout.trim().split('\n').pop() ?? '';
    console.log(`${mode.slice(2).padEnd(8)} ${cpu}, ${((performance.now() - started) / 1000).toFixed(1)} s wall, tests ${last}`);
  }
}

await main();
