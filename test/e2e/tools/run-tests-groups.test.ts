import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { packageRoot } from '../../../src/core/package-info.js';

const RUNNER = join(packageRoot(), 'dist', 'tools', 'run-tests.js');

/** The runner on the test files under `root`, as `npm test` starts it, with a 10 s hang limit. */
function runner(root: string, args: readonly string[]): { status: number | null; text: string } {
  const out = spawnSync(process.execPath, [RUNNER, ...args], {
    encoding: 'utf8',
    // Without NODE_TEST_CONTEXT: under node --test the runner would take itself for a test file's child.
    env: { ...Object.fromEntries(Object.entries(process.env).filter(([k]) => k !== 'NODE_TEST_CONTEXT')), INFERBENCH_TEST_ROOT: root, INFERBENCH_TEST_GROUP_IDLE_S: '10' },
    timeout: 120_000,
  });
  return { status: out.status, text: out.stdout + out.stderr };
}

test('a grouped pure file that crashes or hangs fails by name, exit 1, and the files beside it still count', () => {
  const root = mkdtempSync(join(tmpdir(), 'inferbench-run-tests-groups-'));
  try {
    writeFileSync(join(root, 'package.json'), '{ "type": "module" }\n');
    // No measured times: dealt in name order to 2 groups, a and c in group 1, b in group 2.
    writeFileSync(join(root, 'a-ok.test.js'), "import { test } from 'node:test';\ntest('ok one', () => {});\ntest('ok two', () => {});\n");
    writeFileSync(join(root, 'b-crash.test.js'), "import { test } from 'node:test';\ntest('exits mid-test', () => { process.exit(7); });\n");
    writeFileSync(join(root, 'c-hang.test.js'), "import { test } from 'node:test';\ntest('never ends', () => new Promise(() => { setInterval(() => {}, 1000); }));\n");
    const { status, text } = runner(root, ['--pure']);
    assert.equal(status, 1, text);
    assert.match(text, /\[pure\] 3 files, \d+ processes at a time: 3 files in 2 groups of one process each, 0 alone/);
    assert.match(text, /\[pure\] .*✔ ok one/);
    assert.match(text, /pure: 3 files, 2 passed, 2 failed, 0 skipped, 0 todo/);
    assert.match(text, /✖ \S*b-crash\.test\.js: \(the file did not finish in its group\)\n\s+its process ended early/);
    assert.match(text, /✖ \S*c-hang\.test\.js: \(the file did not finish in its group\)\n\s+no test event for 10 s: the group's process was stopped as hung/);
    assert.match(text, /files of pure group \d of 2: \S*a-ok\.test\.js, \S*c-hang\.test\.js/);
    assert.match(text, /most CPU \(each process tree: a file alone, or a group of files as one/);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});

test('e2e files share processes too, about six to a group: seven files run in two groups and each is still counted', () => {
  const root = mkdtempSync(join(tmpdir(), 'inferbench-run-tests-groups-'));
  try {
    writeFileSync(join(root, 'package.json'), '{ "type": "module" }\n');
    mkdirSync(join(root, 'e2e'));
    // Each file appends the pid of the process it ran in, so the test sees how many processes the seven files took.
    const pids = join(root, 'pids.txt');
    for (let i = 1; i <= 7; i++) {
      writeFileSync(join(root, 'e2e', `f${i}.test.js`), `import { test } from 'node:test';\nimport { appendFileSync } from 'node:fs';\ntest('file ${i} runs', () => { appendFileSync(${JSON.stringify(pids)}, process.pid + '\\n'); });\n`);
    }
    const { status, text } = runner(root, ['--e2e']);
    assert.equal(status, 0, text);
    assert.match(text, /\[e2e\] 7 files, \d+ \(\d+ once no pure file is left\) at a time: 7 files in 2 groups of one process each, 0 alone/);
    assert.match(text, /e2e: 7 files, 7 passed, 0 failed/);
    const ran = readFileSync(pids, 'utf8').trim().split('\n');
    assert.equal(ran.length, 7);
    assert.equal(new Set(ran).size, 2, `the seven files ran in processes ${ran.join(', ')}`);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});
