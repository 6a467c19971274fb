import { test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { isCleanUserError, runCli } from '../../helpers/cli.js';
import { testOutputDir } from '../../helpers/test-cache.js';
import { userModelCopy } from '../../helpers/user-model-copy.js';

test('a quantize cache where no folder can be made ends the run naming the cache and INFERBENCH_CACHE, not with ENOENT … mkdir and a generic fix', async () => {
  const model = await userModelCopy('quantize-cache-unusable');
  const dir = testOutputDir('quantize-cache-unusable');
  const file = join(dir, 'a-file');
  writeFileSync(file, 'not a folder');
  for (const [cache, message] of [[join(file, 'cache'), /cannot use the inferbench cache: .*a-file is a file, not a folder/], ['/proc/inferbench-quantize', /cannot use the inferbench cache: \/proc\/inferbench-quantize cannot be created/]] as const) {
    const r = await runCli(['run', '--model', model, '--dtype', 'q8', '--engines', 'onnx-cpu', '--batch-sizes', '1', '--limit', '8', '--no-png', '--out', join(dir, 'out')], { env: { INFERBENCH_CACHE: cache }, timeoutMs: 120_000 });
    assert.ok(isCleanUserError(r), `${cache}: ${r.stderr}`);
    assert.match(r.stderr, message);
    assert.match(r.stderr, /fix: set INFERBENCH_CACHE to a folder you can write to/);
  }
});
