import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { packageRoot } from '../../../src/core/package-info.js';

const RUNNER = join(packageRoot(), 'dist', 'tools', 'run-tests.js');

test('a grouped pure file that crashes or hangs fails by name, exit 1, and the files beside it still count', () => {
  const root = mkdtempSync(join(tmpdir(), 'inferbench-run-tests-groups-'));
  try {
    writeFileSync(join(root, 'package.json'), '{ "type": "module" }\n');
    // No measured times: dealt in name order to 2 groups, a and c in group 1, b in group 2.
    writeFileSync(join(root, 'a-ok.test.js'), "import { test } from 'node:test';\ntest('ok one', () => {});\ntest('ok two', () => {});\n");
    writeFileSync(join(root, 'b-crash.test.js'), "import { test } from 'node:test';\ntest('exits mid-test', () => { process.exit(7); });\n");
    writeFileSync(join(root, 'c-hang.test.js'), "import { test } from 'node:test';\ntest('never ends', () => new Promise(() => { setInterval(() => {}, 1000); }));\n");
    const out = spawnSync(process.execPath, [RUNNER, '--pure'], {
      encoding: 'utf8',
      // Without NODE_TEST_CONTEXT: under node --test the runner would take itself for a test file's child.
      env: { ...Object.fromEntries(Object.entries(process.env).filter(([k]) => k !== 'NODE_TEST_CONTEXT')), INFERBENCH_TEST_ROOT: root, INFERBENCH_TEST_GROUP_IDLE_S: '10' },
      timeout: 120_000,
    });
    const text = out.stdout + out.stderr;
    assert.equal(out.status, 1, text);
    assert.match(text, /\[pure\] 3 files, \d+ processes at a time: 3 files in 2 groups of one process each, 0 alone/);
    assert.match(text, /\[pure\] .*✔ ok one/);
    assert.match(text, /pure: 3 files, 2 passed, 2 failed, 0 skipped, 0 todo/);
    assert.match(text, /✖ \S*b-crash\.test\.js: \(the file did not finish in its group\)\n\s+its process ended early/);
    assert.match(text, /✖ \S*c-hang\.test\.js: \(the file did not finish in its group\)\n\s+no test event for 10 s: the group's process was stopped as hung/);
    assert.match(text, /files of group \d of 2: \S*a-ok\.test\.js, \S*c-hang\.test\.js/);
    assert.match(text, /most CPU \(each process tree: a file alone, or a group of pure files as one/);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});
