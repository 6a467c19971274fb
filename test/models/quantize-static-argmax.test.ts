import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { hfFixtureArchs, readHfFixture } from '../helpers/hf-fixtures.js';
import { testOutputDir } from '../helpers/test-cache.js';
import { ensureQuantizedVariant } from '../../src/models/quantize/quantize-cache.js';
import { TextClassification } from '../../src/models/text-classification.js';
import { createOnnxNodeEngine } from '../../engines/onnx/onnx-node-engine.js';
import { openDataset } from '../../datasets/open-dataset.js';
import { compareVariantOutputs } from '../../src/models/variant-parity.js';
import type { TensorMap } from '../../src/core/tensor.js';

const CALIBRATION_ROWS = 128;
const MEASURED_ROWS = 160;

function batched(model: TextClassification, texts: readonly string[]): TensorMap[] {
  const out: TensorMap[] = [];
  for (let i = 0; i < texts.length; i += 8) out.push(model.tokenizeTexts(texts.slice(i, i + 8)));
  return out;
}

test('q8-static calibrated on the first 128 dataset rows keeps ≥ 95% argmax agreement with fp32 on the rows after them, on every classifier fixture', async () => {
  const texts: string[] = [];
  for await (const row of (await openDataset()).take(CALIBRATION_ROWS + MEASURED_ROWS)) texts.push(String(row['text']));
  const engine = createOnnxNodeEngine('cpu');
  const cacheRoot = testOutputDir('quantize-static');
  for (const arch of hfFixtureArchs().filter((a) => a !== 'gpt2-past')) {
    const fixture = readHfFixture(arch);
    const fp32 = await new TextClassification(fixture.dir).init();
    const made = await ensureQuantizedVariant({
      sourceDir: fixture.dir,
      dtype: 'q8-static',
      cacheRoot,
      calibration: { batches: batched(fp32, texts.slice(0, CALIBRATION_ROWS)), rows: CALIBRATION_ROWS, method: 'minmax', rowsHash: 'embedded-first-128', engine },
    });
    assert.ok('dir' in made, `${arch}: ${'skip' in made ? made.skip : ''}`);
    assert.deepEqual(made.calibration, { rows: CALIBRATION_ROWS, method: 'minmax' });
    assert.match(made.method, /static QDQ calibrated on 128 rows \(minmax\)/);
    const reference = await engine.open(fixture.onnxPath, { threads: 1, precision: 'fp32' });
    const variant = await engine.open(join(made.dir, made.file), { threads: 1, precision: 'int8' });
    let agreeing = 0;
    let rows = 0;
    let maxDiff = 0;
    for (const feeds of batched(fp32, texts.slice(CALIBRATION_ROWS))) {
      const parity = compareVariantOutputs(await reference.run(feeds), await variant.run(feeds), { reference: 'fp32', engine: 'onnx-cpu' });
      agreeing += parity.argmaxAgreement * parity.rows;
      rows += parity.rows;
      maxDiff = Math.max(maxDiff, parity.maxAbsDiff);
    }
    await reference.dispose();
    await variant.dispose();
    assert.equal(rows, MEASURED_ROWS);
    assert.ok(maxDiff > 0, `${arch}: q8-static outputs equal fp32's, so nothing was quantized`);
    assert.ok(agreeing / rows >= 0.95, `${arch}: argmax agreement ${((agreeing / rows) * 100).toFixed(1)}% (max |Δ| ${maxDiff})`);
  }
});
