import assert from 'node:assert/strict';
import { test } from 'node:test';
import { runCli } from '../../helpers/cli.js';
import { watchChildren } from '../../helpers/child-watch.js';
import { testOutputDir } from '../../helpers/test-cache.js';

test('inferbench load serves each engine load from its own child process by default, and from this process with --no-isolate', async () => {
  const args = ['load', '--engines', 'onnx-cpu', '--rates', '40', '--duration', '0.2', '--warmup', '0', '--min-queries', '5', '--no-png'];
  for (const isolate of [true, false]) {
    const { seen, onStderr: watch } = watchChildren();
    const r = await runCli([...args, ...(isolate ? [] : ['--no-isolate']), '--out', testOutputDir('load-isolated')], { onStderr: watch });
    assert.equal(r.code, 0, r.stderr);
    assert.equal([...seen].some((c) => c.includes('scenario-child.js load')), isolate, `children seen: ${[...seen].join(' | ') || 'none'}`);
  }
});
