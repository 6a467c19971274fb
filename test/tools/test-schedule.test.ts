import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { packageRoot } from '../../src/core/package-info.js';
import { longestFirst, mergedTimes, nextPool, readTimes, sourcePath, TIMES_FILE, writeTimes } from '../../tools/test-schedule.js';

const ROOT = '/r/dist/test';
const key = (f: string) => sourcePath(f, ROOT);

test('a dist test file is keyed by its source path', () => {
  assert.equal(sourcePath('/r/dist/test/e2e/tools/pack-offline-run.test.js', ROOT), 'test/e2e/tools/pack-offline-run.test.ts');
  assert.equal(sourcePath('/r/dist/test/flat.test.js', ROOT), 'test/flat.test.ts');
});

test('files start longest first, files with no measured time before all, ties in name order', () => {
  const files = ['a', 'b', 'c', 'd', 'e'].map((n) => `${ROOT}/e2e/${n}.test.js`);
  const times = { 'test/e2e/a.test.ts': 1, 'test/e2e/b.test.ts': 30, 'test/e2e/c.test.ts': 5, 'test/e2e/e.test.ts': 5 };
  assert.deepEqual(
    longestFirst(files, times, key).map((f) => f.slice(`${ROOT}/e2e/`.length)),
    ['d.test.js', 'b.test.js', 'c.test.js', 'e.test.js', 'a.test.js'],
  );
  // Without times the order is the name order: the runner's old behaviour.
  assert.deepEqual(longestFirst([...files].reverse(), {}, key), files);
});

test('e2e files start first up to their limit, pure ones fill the rest; with no pure file left, e2e takes the free pure slots up to its alone limit', () => {
  const limits = { pure: 4, e2e: 2, e2eAlone: 4 };
  assert.equal(nextPool({ pure: 10, e2e: 10 }, { pure: 0, e2e: 0 }, limits), 'e2e');
  assert.equal(nextPool({ pure: 10, e2e: 10 }, { pure: 0, e2e: 2 }, limits), 'pure');
  assert.equal(nextPool({ pure: 10, e2e: 10 }, { pure: 4, e2e: 2 }, limits), null);
  // Pure files still waiting: e2e stays at 2 even with pure slots free.
  assert.equal(nextPool({ pure: 1, e2e: 10 }, { pure: 3, e2e: 2 }, limits), 'pure');
  // No pure file waiting: e2e grows into the slots the pure pool no longer fills, never past 4, never past 6 in all.
  assert.equal(nextPool({ pure: 0, e2e: 10 }, { pure: 3, e2e: 2 }, limits), 'e2e');
  assert.equal(nextPool({ pure: 0, e2e: 10 }, { pure: 3, e2e: 3 }, limits), null);
  assert.equal(nextPool({ pure: 0, e2e: 10 }, { pure: 0, e2e: 3 }, limits), 'e2e');
  assert.equal(nextPool({ pure: 0, e2e: 10 }, { pure: 0, e2e: 4 }, limits), null);
  assert.equal(nextPool({ pure: 0, e2e: 0 }, { pure: 0, e2e: 0 }, limits), null);
  // The old pools' sizes stay the limits while both have work.
  assert.equal(nextPool({ pure: 0, e2e: 10 }, { pure: 4, e2e: 1 }, limits), 'e2e');
});

test('--write-times keeps unmeasured files, replaces measured ones, drops deleted ones, rounds to 0.1 s in key order', () => {
  const merged = mergedTimes(
    { 'test/b.test.ts': 3, 'test/gone.test.ts': 9, 'test/a.test.ts': 2 },
    new Map([['test/b.test.ts', 4.26], ['test/c.test.ts', 0.04]]),
    new Set(['test/a.test.ts', 'test/b.test.ts', 'test/c.test.ts']),
  );
  assert.deepEqual(Object.entries(merged), [['test/a.test.ts', 2], ['test/b.test.ts', 4.3], ['test/c.test.ts', 0]]);
});

test('a missing or damaged times file gives no times and says why; a written one reads back', (t) => {
  const root = mkdtempSync(join(tmpdir(), 'inferbench-times-'));
  t.after(() => rmSync(root, { recursive: true, force: true }));
  const missing = readTimes(root);
  assert.deepEqual(missing.times, {});
  assert.match(missing.note ?? '', /test-times\.json is missing: files start in name order/);
  mkdirSync(join(root, 'tools'));
  writeFileSync(join(root, TIMES_FILE), '{ not json');
  const damaged = readTimes(root);
  assert.deepEqual(damaged.times, {});
  assert.match(damaged.note ?? '', /test-times\.json is unreadable .*--write-times rewrites it/);
  writeFileSync(join(root, TIMES_FILE), '[1, 2]');
  assert.match(readTimes(root).note ?? '', /unreadable \(not an object/);
  writeTimes(root, { 'test/a.test.ts': 1.5 });
  assert.deepEqual(readTimes(root), { times: { 'test/a.test.ts': 1.5 }, note: null });
  assert.equal(readFileSync(join(root, TIMES_FILE), 'utf8'), '{\n  "test/a.test.ts": 1.5\n}\n');
});

test('the committed times file reads and names only test files that exist', () => {
  const { times, note } = readTimes(packageRoot());
  assert.equal(note, null);
  const names = Object.keys(times);
  assert.ok(names.length > 100, `${names.length} files timed`);
  for (const n of names) assert.match(n, /^test\/.+\.test\.ts$/);
  const root = packageRoot();
  for (const n of names) assert.ok(readFileSync(join(root, n), 'utf8').length > 0, n);
});
