import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { packageRoot } from '../../src/core/package-info.js';
import { ALONE_FILE, chunkGroups, dealGroups, groupEntry, readAlone, unsafeReasons } from '../../tools/test-groups.js';

const ROOT = packageRoot();

/** Every test source, pure and e2e, as `test/x/y.test.ts`: both pools group their files. */
function testSources(dir = join(ROOT, 'test'), rel = 'test'): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = `${rel}/${entry.name}`;
    if (entry.isDirectory()) out.push(...testSources(join(dir, entry.name), path));
    else if (entry.isFile() && entry.name.endsWith('.test.ts')) out.push(path);
  }
  return out.sort();
}

test('every file in the alone list still exists as a test, so the list cannot rot', () => {
  const { alone, note } = readAlone(ROOT);
  assert.equal(note, null);
  assert.ok(alone !== null && alone.size > 0);
  const sources = new Set(testSources());
  const gone = [...alone.keys()].filter((f) => !existsSync(join(ROOT, f)) || !sources.has(f));
  assert.deepEqual(gone, [], `${ALONE_FILE} names files that are not tests: remove them`);
  for (const [file, reason] of alone) assert.ok(reason.trim() !== '', `${file} has no reason in ${ALONE_FILE}`);
});

test('every test that changes process-wide state is in the alone list, so no unsafe file is grouped', () => {
  const { alone } = readAlone(ROOT);
  const missing = testSources()
    // This file holds the patterns' examples as strings; it changes nothing.
    .filter((f) => f !== 'test/tools/test-alone-list.test.ts')
    .map((f) => ({ f, reasons: unsafeReasons(readFileSync(join(ROOT, f), 'utf8')) }))
    .filter(({ f, reasons }) => reasons.length > 0 && !alone?.has(f))
    .map(({ f, reasons }) => `${f}: ${reasons.join('; ')}`);
  assert.deepEqual(missing, [], `add these to ${ALONE_FILE} with the reason`);
});

test('the unsafe patterns catch env writes, chdir, process handlers, global mocks and tfjs-node, not reads', () => {
  assert.deepEqual(unsafeReasons("process.env.INFERBENCH_CACHE = dir;"), ['sets process.env']);
  assert.deepEqual(unsafeReasons("process.env['HF_HOME'] ??= dir;"), ['sets process.env']);
  assert.deepEqual(unsafeReasons('delete process.env.X;'), ['sets process.env']);
  assert.deepEqual(unsafeReasons('process.chdir(dir);'), ['changes the working directory']);
  assert.deepEqual(unsafeReasons('const mine = descendantsOf(process.pid, /chrom/);'), ["reads its own process's children (an earlier file's would be among them)"]);
  assert.deepEqual(unsafeReasons("assert.deepEqual(await chromiumChildren(), [], 'closed');"), ["reads its own process's children (an earlier file's would be among them)"]);
  assert.deepEqual(unsafeReasons('markIsolatedProcess();'), ['marks its process an isolated child (process-wide: every later probe in it takes the child path)']);
  assert.deepEqual(unsafeReasons("process.on('exit', f);"), ['installs a process-wide handler or exit code']);
  assert.deepEqual(unsafeReasons("const c = mock.method(performance, 'now');"), ['mocks a global outside a test context']);
  assert.equal(unsafeReasons("import { tfjsNodeSkip } from '../helpers/tfjs-node.js';").length, 1);
  assert.equal(unsafeReasons('await tf.setBackend("cpu");').length, 1);
  // Reads, comparisons, a test context's own mock and an engine named in a string share a process safely.
  assert.deepEqual(unsafeReasons("if (process.env.CI === '1') t.mock.method(o, 'f'); const id = 'tfjs-node';"), []);
  // A child's own children are its business, not this process's.
  assert.deepEqual(unsafeReasons('descendantsOf(parent.pid as number, marker);'), []);
});

test('groups are dealt longest first to the least loaded group, and come back longest first', () => {
  const times: Record<string, number> = { a: 10, b: 6, c: 5, d: 4, e: 1 };
  // a→1 (10), b→2 (6), c→2 (11), d→1 (14), e→2 (12): group 1 ends at 14 s, group 2 at 12 s.
  assert.deepEqual(dealGroups(['a', 'b', 'c', 'd', 'e'], (f) => times[f], 2), [['a', 'd'], ['b', 'c', 'e']]);
  // A file with no time counts as 1 s; more groups than files gives one group per file, no empty group.
  assert.deepEqual(dealGroups(['x', 'y'], () => undefined, 4), [['x'], ['y']]);
});

test('a group entry imports each file inside a describe named by its path, in order', () => {
  const text = groupEntry(['/r/dist/test/a.test.js', '/r/dist/test/b.test.js']);
  const lines = text.trim().split('\n').filter((l) => l.startsWith('describe('));
  assert.deepEqual(lines, [
    'describe("/r/dist/test/a.test.js", async () => { await import("file:///r/dist/test/a.test.js"); });',
    'describe("/r/dist/test/b.test.js", async () => { await import("file:///r/dist/test/b.test.js"); });',
  ]);
});

test('e2e groups are cut in longest-first order, at most so many files and seconds each: long files keep to small groups, the short ones come last', () => {
  const times: Record<string, number> = { a: 100, b: 50, c: 30, d: 20, e: 5, f: 4, g: 3, h: 2 };
  // a is longer than the cap alone; b+c fit 90 s, d would not; d, e, f fill three files; g and h end the list.
  assert.deepEqual(chunkGroups(Object.keys(times), (f) => times[f], 3, 90), [['a'], ['b', 'c'], ['d', 'e', 'f'], ['g', 'h']]);
  // A file with no time counts as 1 s.
  assert.deepEqual(chunkGroups(['x', 'y', 'z'], () => undefined, 6, 2), [['x', 'y'], ['z']]);
});
