import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { isCleanUserError, runCli } from '../../helpers/cli.js';
import { testOutputDir } from '../../helpers/test-cache.js';

test('inferbench train on a dataset without labels names the missing column and --label-column', async () => {
  const out = testOutputDir('train-no-labels');
  const dataset = join(out, 'texts.jsonl');
  writeFileSync(dataset, ['{"text":"a fine film"}', '{"text":"a dull film"}'].join('\n'));
  const r = await runCli(['train', '--dataset', dataset, '--engines', 'tfjs-cpu', '--out', out]);
  assert.ok(isCleanUserError(r), r.stderr);
  assert.match(r.stderr, /has no label column \(looked for label, labels, sentiment, target; it has text\)/);
  assert.match(r.stderr, /fix: pass --label-column/);

  const named = await runCli(['train', '--dataset', dataset, '--label-column', 'stars', '--engines', 'tfjs-cpu', '--out', out]);
  assert.ok(isCleanUserError(named), named.stderr);
  assert.match(named.stderr, /Label column "stars" not found; the data set has columns: "text"/);
});
