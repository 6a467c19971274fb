import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import type { RunRecord } from '../../../src/index.js';
import { runCli } from '../../helpers/cli.js';
import { testOutputDir } from '../../helpers/test-cache.js';
import { tfjsNodeSkip } from '../../helpers/tfjs-node.js';

test('a sweep of onnx-cpu and tfjs-node on the default model completes, tfjs-node within parity of onnx-cpu', { skip: await tfjsNodeSkip() }, async () => {
  const out = testOutputDir('tfjs-node-sweep');
  // In this process (--no-isolate): isolation is not this test's subject (tfjs-node-threads runs its isolated children).
  const r = await runCli(['run', '--engines', 'onnx-cpu,tfjs-node', '--batch-sizes', '1,4', '--limit', '8', '--min-time', '0', '--min-batches', '1', '--rounds', '1', '--no-png', '--no-isolate', '--out', out], { timeoutMs: 240_000 });
  assert.equal(r.code, 0, r.stderr);
  const [runId] = readdirSync(out);
  const run = JSON.parse(readFileSync(join(out, runId ?? '', 'results.json'), 'utf8')) as RunRecord;
  assert.equal(run.state, 'completed');
  assert.deepEqual(run.cells.map((c) => `${c.engine}@${c.batchSize}:${c.state}`).sort(), ['onnx-cpu@1:completed', 'onnx-cpu@4:completed', 'tfjs-node@1:completed', 'tfjs-node@4:completed']);
  for (const c of run.cells) {
    if (c.state !== 'completed' || c.engine !== 'tfjs-node') continue;
    assert.equal(c.session.backend, 'tensorflow CPU', 'the device libtensorflow took, read back');
    assert.match(c.session.versions['libtensorflow'] ?? '', /^\d+\.\d+/);
    assert.ok(c.parity, `tfjs-node at batch ${c.batchSize} has no parity record`);
    assert.equal(c.parity.reference, 'onnx-cpu');
    assert.ok(c.parity.withinTolerance, `tfjs-node at batch ${c.batchSize}: max |diff| ${c.parity.maxAbsDiff} from onnx-cpu`);
    assert.equal(c.parity.argmaxAgreement, 1);
  }
});
