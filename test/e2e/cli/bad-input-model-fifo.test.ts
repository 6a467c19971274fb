import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { embeddedTexts } from '../../../datasets/open-dataset.js';
import { TINY_BERT_CONFIG } from '../../../src/models/generated/bert-config.js';
import { ensureGeneratedModel } from '../../../src/models/generated/generated-model.js';
import { isCleanUserError, runCli } from '../../helpers/cli.js';
import { testOutputDir, useTestCache } from '../../helpers/test-cache.js';
import { copyModelFolder } from '../../helpers/user-model-copy.js';

test('a FIFO (or any file that is not a regular file) in a model folder is refused by name before a byte is read, instead of hanging', { skip: process.platform === 'win32' }, async () => {
  useTestCache();
  const base = testOutputDir('bad-input-model-fifo');
  const source = await ensureGeneratedModel(TINY_BERT_CONFIG, { texts: await embeddedTexts() });
  for (const file of ['onnx/model.onnx', 'tokenizer.json']) {
    const dir = join(base, file.replace(/\W/g, '-'));
    copyModelFolder(source, dir);
    rmSync(join(dir, file));
    execFileSync('mkfifo', [join(dir, file)]);
    const commands = [['run', '--model', dir, '--engines', 'onnx-cpu', '--batch-sizes', '1', '--limit', '8', '--no-png', '--out', join(base, 'out')]];
    // inspect reads the graph only.
    if (file.endsWith('.onnx')) commands.push(['inspect', '--model', dir]);
    for (const args of commands) {
      const r = await runCli(args, { timeoutMs: 60_000 });
      assert.ok(isCleanUserError(r), `${file}, ${args[0]}: ${r.stderr}`);
      assert.match(r.stderr, new RegExp(`${join(dir, file).replace(/[.]/g, '\\.')} is a FIFO \\(named pipe\\), not a regular file`), `${file}, ${args[0]}`);
    }
  }
});
