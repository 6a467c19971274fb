import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createTfjsEngine } from '../../engines/tfjs/tfjs-engine.js';
import { CellSkip } from '../../src/index.js';
import { readHfFixture } from '../helpers/hf-fixtures.js';
import { tfjsNodeSkip } from '../helpers/tfjs-node.js';

test('once libtensorflow is loaded with 1 thread, tfjs-node refuses 2 in that process and takes the default as 1', { skip: await tfjsNodeSkip() }, async () => {
  const path = readHfFixture('bert').onnxPath;
  const engine = createTfjsEngine('node');
  const first = await engine.open(path, { threads: 1, precision: 'fp32' });
  assert.equal(first.describe().threads, 1);
  await first.dispose();
  await assert.rejects(engine.open(path, { threads: 2, precision: 'fp32' }), (err: unknown) => {
    assert.ok(err instanceof CellSkip, String(err));
    assert.equal(err.message, 'tfjs-node already loaded libtensorflow with 1 intra-op thread(s) in this process; 2 needs a separate process (run isolated)');
    return true;
  });
  const again = await engine.open(path, { threads: null, precision: 'fp32' });
  assert.equal(again.describe().threads, 1);
  await again.dispose();
});
