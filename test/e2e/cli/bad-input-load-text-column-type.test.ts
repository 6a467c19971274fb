import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { isCleanUserError, runCli } from '../../helpers/cli.js';
import { testOutputDir } from '../../helpers/test-cache.js';

test('load refuses a --text-column of integers before any engine opens: rc 2, the column and what it holds', async () => {
  const base = testOutputDir('bad-input-load-text-column');
  const jsonl = join(base, 'rows.jsonl');
  writeFileSync(jsonl, ['{"text": "good", "score": 1}', '{"text": "bad", "score": 0}'].join('\n'));
  const r = await runCli(['load', '--engines', 'onnx-cpu', '--rates', '10', '--duration', '0.2', '--dataset', jsonl, '--text-column', 'score', '--no-png', '--out', join(base, 'out')]);
  assert.ok(isCleanUserError(r), r.stderr);
  assert.equal(r.code, 2, r.stderr);
  assert.match(r.stderr, /column "score" holds integers \(row 1: 1\), not text/);
  assert.match(r.stderr, /fix: pass --text-column/);
  assert.doesNotMatch(r.stderr, /opened, warming up|inferbench: load /, 'refused before the run started');
});
