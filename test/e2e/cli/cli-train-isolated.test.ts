import assert from 'node:assert/strict';
import { join } from 'node:path';
import { test } from 'node:test';
import { runCli } from '../../helpers/cli.js';
import { watchChildren } from '../../helpers/child-watch.js';
import { HF_FIXTURES_DIR } from '../../helpers/hf-fixtures.js';
import { testOutputDir } from '../../helpers/test-cache.js';

test('inferbench train runs each engine in a child process by default, and in this process with --no-isolate', async () => {
  const args = ['train', '--model', join(HF_FIXTURES_DIR, 'bert'), '--engines', 'tfjs-wasm', '--batch-sizes', '4', '--steps', '20', '--warm-steps', '0', '--rounds', '1', '--no-png'];
  for (const isolate of [true, false]) {
    const { seen, onStderr: watch } = watchChildren();
    const r = await runCli([...args, ...(isolate ? [] : ['--no-isolate']), '--out', testOutputDir('train-isolated')], { onStderr: watch });
    assert.equal(r.code, 0, r.stderr);
    assert.equal([...seen].some((c) => c.includes('scenario-child.js train')), isolate, `children seen: ${[...seen].join(' | ') || 'none'}`);
  }
});
