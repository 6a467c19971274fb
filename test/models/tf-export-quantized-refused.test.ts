import assert from 'node:assert/strict';
import { join } from 'node:path';
import { test } from 'node:test';
import { createNativeTfjsEngine } from '../../engines/tfjs/native-engine.js';
import { CellSkip } from '../../src/core/errors.js';
import { TextClassification } from '../../src/models/text-classification.js';
import { ExportRefused } from '../../src/models/tf-export/lower-context.js';
import { exported } from '../helpers/native-exports.js';
import { HF_FIXTURES_DIR } from '../helpers/hf-fixtures.js';
import { packageRoot } from '../../src/core/package-info.js';

const QUANTIZED = join(packageRoot(), 'test', 'data', 'quant', 'bert-dynamic', 'model.onnx');

test('a quantized graph is refused by the exporter with the reason (its quantized op and node)', async () => {
  await assert.rejects(exported(QUANTIZED, 'graph-model'), (err: unknown) => {
    assert.ok(err instanceof ExportRefused, String(err));
    assert.match(err.message, /^quantized graph \((DequantizeLinear|DynamicQuantizeLinear|MatMulInteger), node \S+\): the exporter writes float graphs only; export the fp32 model$/);
    return true;
  });
});

test('a native tfjs engine given a quantized variant skips its cell with the exporter\'s reason', async () => {
  const model = await new TextClassification(join(HF_FIXTURES_DIR, 'bert'), { onnxFile: '../../quant/bert-dynamic/model.onnx', precision: 'int8' }).init();
  await assert.rejects(model.exportToTfjs('cpu', { engine: createNativeTfjsEngine('cpu', 'graph-model') }), (err: unknown) => {
    assert.ok(err instanceof CellSkip, String(err));
    assert.match(err.message, /cannot be exported as a tfjs GraphModel: quantized graph/);
    return true;
  });
});
