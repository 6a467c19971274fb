import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync, truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { RunRecord } from '../../../src/core/results.js';
import { runCli } from '../../helpers/cli.js';
import { testOutputDir } from '../../helpers/test-cache.js';
import { userModelCopy } from '../../helpers/user-model-copy.js';

test('a damaged quantized variant in the cache (graph cut short, quantize.json not JSON) is written again and the row says so; the run goes on', async () => {
  const model = await userModelCopy('quantize-damaged');
  const cache = testOutputDir('quantize-damaged-cache');
  const out = testOutputDir('quantize-damaged-out');
  const run = async (): Promise<RunRecord> => {
    const r = await runCli(['run', '--model', model, '--dtype', 'q8', '--engines', 'onnx-cpu', '--batch-sizes', '1', '--limit', '8', '--rounds', '1', '--min-time', '0', '--reference', 'none', '--no-png', '--no-isolate', '--out', out], { env: { INFERBENCH_CACHE: cache } });
    assert.equal(r.code, 0, r.stderr);
    const runs = readdirSync(out).filter((f) => !f.startsWith('history')).sort();
    return JSON.parse(readFileSync(join(out, runs[runs.length - 1]!, 'results.json'), 'utf8')) as RunRecord;
  };
  await run();
  const [entry] = readdirSync(join(cache, 'quantized'));
  const graph = join(cache, 'quantized', entry!, 'onnx', 'model_quantized.onnx');
  const damage: [string, () => void, RegExp][] = [
    ['truncated graph', () => truncateSync(graph, Math.floor(statSync(graph).size / 2)), /the cached variant was damaged \(the cached graph .*model_quantized\.onnx has \d+ of its \d+ bytes\); written again/],
    ['corrupt quantize.json', () => writeFileSync(join(cache, 'quantized', entry!, 'quantize.json'), '{"method": '), /the cached variant was damaged \(.*quantize\.json is not valid JSON\); written again/],
  ];
  for (const [what, harm, note] of damage) {
    harm();
    const record = await run();
    assert.equal(record.cells[0]?.state, 'completed', `${what}: ${JSON.stringify(record.cells[0]).slice(0, 300)}`);
    assert.match(record.models[0]?.notes.join('\n') ?? '', note, what);
  }
});
