import { test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runCli, isCleanUserError } from '../../helpers/cli.js';
import { testOutputDir } from '../../helpers/test-cache.js';

test('a dataset without a text column gets an error listing the columns found', async () => {
  const file = join(testOutputDir('no-text-column'), 'data.csv');
  writeFileSync(file, 'id,body,stars\n1,"great food",5\n2,"cold soup",1\n');
  const r = await runCli(['run', '--dataset', file, '--engines', 'onnx-cpu']);
  assert.ok(isCleanUserError(r), r.stderr);
  assert.match(r.stderr, /id/);
  assert.match(r.stderr, /body/);
  assert.match(r.stderr, /stars/);
  assert.match(r.stderr, /--text-column/);
});

test('an explicit --text-column that is absent lists the columns found', async () => {
  const file = join(testOutputDir('absent-text-column'), 'data.csv');
  writeFileSync(file, 'text,label\n"great food",1\n');
  const r = await runCli(['run', '--dataset', file, '--text-column', 'review_body', '--engines', 'onnx-cpu']);
  assert.ok(isCleanUserError(r), r.stderr);
  assert.match(r.stderr, /review_body/);
  assert.match(r.stderr, /text, label|"text", "label"|text,label/);
});
