import assert from 'node:assert/strict';
import { existsSync, readdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { isCleanUserError, runCli } from '../../helpers/cli.js';
import { HF_FIXTURES_DIR } from '../../helpers/hf-fixtures.js';
import { testOutputDir } from '../../helpers/test-cache.js';

test('export --out into a folder that cannot be written, under a file, or as a dangling link: exit 2, the path and the reason, no stack, nothing left', async () => {
  const base = testOutputDir('bad-input-export-out');
  const file = join(base, 'a-file');
  writeFileSync(file, 'not a folder');
  const dangling = join(base, 'dangling');
  symlinkSync(join(base, 'nowhere', 'x'), dangling);
  const cases: [string, RegExp][] = [
    ['/sys/inferbench-export', /cannot (create|write) \/sys\/inferbench-export[^:]*: permission denied/],
    [join(file, 'sub'), /a-file.*(a file, not a folder|is a file)/],
    [dangling, /--out .*dangling is a symbolic link to .*nowhere\/x, which does not exist/],
  ];
  for (const [out, message] of cases) {
    const r = await runCli(['export', '--model', join(HF_FIXTURES_DIR, 'bert'), '--format', 'graph-model', '--out', out], { timeoutMs: 120_000 });
    assert.ok(isCleanUserError(r), `${out}: rc ${r.code}\n${r.stderr}`);
    assert.equal(r.code, 2, r.stderr);
    assert.doesNotMatch(r.stderr, /internal error/);
    assert.match(r.stderr, message);
    assert.match(r.stderr, /fix: .*--out/);
  }
  assert.deepEqual(readdirSync(base).sort(), ['a-file', 'dangling'], 'no temporary folder left beside them');
  assert.ok(!existsSync(join(base, 'nowhere')));
});
