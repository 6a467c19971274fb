import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { CompletedCell, RunRecord } from '../../../src/core/results.js';
import { packageRoot } from '../../../src/core/package-info.js';
import { runCli } from '../../helpers/cli.js';
import { REDIS_SKIP, startRedis, startWorker } from '../../helpers/redis-server.js';
import { testOutputDir } from '../../helpers/test-cache.js';

const ST = join(packageRoot(), 'test', 'data', 'st', 'mini-embed');
/** PyTorch's STS Spearman of the fixture, written by tools/export-st-fixture.py. */
const REFERENCE = JSON.parse(readFileSync(join(ST, 'reference.json'), 'utf8')) as { sts: { pairs: number; spearman: number } };

// transformers-js beside onnx-cpu, not onnx-wasm: the queue is the subject, and onnx-wasm's child on the worker costs about
// 3.7 CPU-s more (V8 compiles ORT's 14 MB wasm); feature-extraction-engines runs the folder on onnx-wasm.
test('run --queue on a sentence-transformers folder: the worker embeds as feature extraction, with cosine parity and the STS Spearman of PyTorch', { skip: REDIS_SKIP }, async () => {
  const redis = await startRedis();
  const worker = await startWorker(redis.url, 'embedder', ['--engines', 'onnx-cpu,transformers-js']);
  try {
    const out = testOutputDir('queue-feature-extraction');
    const r = await runCli([
      'run', '--queue', redis.url, '--serve-models', '127.0.0.1:0', '--model', ST, '--dataset', join(ST, 'sts.jsonl'),
      '--engines', 'onnx-cpu,transformers-js', '--batch-sizes', '8', '--limit', String(REFERENCE.sts.pairs), '--rounds', '1', '--min-time', '0', '--min-batches', '1', '--no-png', '--out', out,
    ]);
    assert.equal(r.code, 0, `${r.stderr}\n${worker.log()}`);
    const [runId] = readdirSync(out).filter((f) => !f.startsWith('history'));
    const run = JSON.parse(readFileSync(join(out, runId ?? '', 'results.json'), 'utf8')) as RunRecord;
    assert.deepEqual(run.cells.map((c) => c.engine).sort(), ['onnx-cpu', 'transformers-js']);
    for (const c of run.cells) assert.equal(c.state, 'completed', JSON.stringify(c).slice(0, 400));
    const cells = run.cells as CompletedCell[];
    for (const c of cells) {
      assert.equal(c.host?.name, 'embedder', 'measured on the worker');
      assert.ok((c.session.notes ?? []).some((n) => /feature extraction: mean pooling, L2-normalised/.test(n)), `${c.engine} ran as feature extraction: ${(c.session.notes ?? []).join(' | ')}`);
      assert.equal(c.sts?.pairs, REFERENCE.sts.pairs);
      assert.ok(Math.abs((c.sts?.spearman ?? NaN) - REFERENCE.sts.spearman) < 0.005, `${c.engine}: Spearman ${c.sts?.spearman} vs PyTorch ${REFERENCE.sts.spearman}`);
    }
    const checked = cells.find((c) => c.engine === 'transformers-js');
    assert.ok(checked?.parity?.cosine, 'the worker sent the vectors back for cosine parity with onnx-cpu');
    assert.ok(checked.parity.cosine.min > 0.9999 && checked.parity.withinTolerance, `min cosine ${checked.parity.cosine.min}`);
  } finally {
    await worker.stop();
    await redis.stop();
  }
});
