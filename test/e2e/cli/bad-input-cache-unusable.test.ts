import { test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { isCleanUserError, runCli } from '../../helpers/cli.js';
import { testOutputDir } from '../../helpers/test-cache.js';

test('INFERBENCH_CACHE where no folder can be made (/proc, a file) fails with the cache named instead of spinning in mkdir', async () => {
  const base = testOutputDir('bad-input-cache-unusable');
  const file = join(base, 'a-file');
  writeFileSync(file, 'not a folder');
  const out = join(base, 'out');
  const cases: [string, string[], RegExp][] = [
    // Node 20's recursive mkdir loops forever at 100% CPU here: procfs answers ENOENT.
    ['/proc', ['run', '--engines', 'onnx-cpu', '--batch-sizes', '1', '--limit', '8', '--no-png', '--out', out], /cannot use the inferbench cache: \/proc\/models cannot be created \(this file system does not allow creating folders there\)/],
    ['/proc/inferbench', ['generate', '--engines', 'onnx-cpu', '--batch-sizes', '1', '--limit', '2', '--no-png', '--out', out], /cannot use the inferbench cache: \/proc\/inferbench cannot be created/],
    [join(file, 'cache'), ['train', '--engines', 'tfjs-cpu', '--steps', '1', '--no-png', '--out', out], /cannot use the inferbench cache: .*a-file is a file, not a folder/],
  ];
  for (const [cache, args, message] of cases) {
    const r = await runCli(args, { env: { INFERBENCH_CACHE: cache }, timeoutMs: 60_000 });
    assert.ok(isCleanUserError(r), `${cache} ${args[0]}: ${r.stderr}`);
    assert.match(r.stderr, message, `${cache} ${args[0]}`);
    assert.match(r.stderr, /fix: set INFERBENCH_CACHE to a folder you can write to/, `${cache} ${args[0]}`);
  }
});
