import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runCli } from '../../helpers/cli.js';
import { testOutputDir } from '../../helpers/test-cache.js';

test('train on a dataset with fewer rows than the steps need says the rows repeat, and how often', async () => {
  const dir = testOutputDir('train-rows-repeat');
  const data = join(dir, 'one-row.jsonl');
  writeFileSync(data, '{"text": "a fine film", "label": 1}\n');
  const out = join(dir, 'out');
  const r = await runCli(['train', '--dataset', data, '--engines', 'tfjs-cpu', '--steps', '2', '--warm-steps', '0', '--rounds', '1', '--batch-sizes', '8', '--no-png', '--out', out], { timeoutMs: 180_000 });
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stderr, /warning: dataset .*one-row\.jsonl has 1 row; the 16 rows the steps need \(steps × largest batch size\) repeat it, each about 16 times/);
  const [runId] = readdirSync(out).filter((f) => !f.startsWith('history'));
  const config = (JSON.parse(readFileSync(join(out, runId!, 'results.json'), 'utf8')) as { config: Record<string, unknown> }).config;
  assert.equal(config['rowsUsed'], 16);
  assert.equal(config['rowsDistinct'], 1);
});
