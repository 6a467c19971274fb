import assert from 'node:assert/strict';
import { join } from 'node:path';
import { test } from 'node:test';
import { CellSkip } from '../../src/core/errors.js';
import { createTfjsEngine } from '../../engines/tfjs/tfjs-engine.js';
import { bertModelDir } from '../helpers/tfjs-bert.js';

test('tfjs-cpu and tfjs-wasm refuse thread counts other than 1 with CellSkip, and describe one thread', async () => {
  const path = join(await bertModelDir(), 'onnx', 'model.onnx');
  for (const backend of ['cpu', 'wasm'] as const) {
    const engine = createTfjsEngine(backend);
    await assert.rejects(engine.open(path, { threads: 4, precision: 'fp32' }), (err: unknown) => {
      assert.ok(err instanceof CellSkip);
      assert.equal(err.message, `tfjs-${backend} runs on one thread in Node; requested 4`);
      return true;
    });
    for (const threads of [1, null]) {
      const session = await engine.open(path, { threads, precision: 'fp32' });
      const d = session.describe();
      assert.equal(d.engine, `tfjs-${backend}`);
      assert.equal(d.backend, backend);
      assert.equal(d.threads, 1);
      assert.equal(d.precision, 'fp32');
      assert.equal(d.versions['@tensorflow/tfjs-core'], '4.22.0');
      assert.equal(d.versions[`@tensorflow/tfjs-backend-${backend}`], '4.22.0');
      assert.ok(d.notes?.includes('ONNX graph translated to tfjs ops by inferbench'));
      await session.dispose();
    }
  }
});
