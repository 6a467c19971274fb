import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { hfFixtureArchs, readHfFixture } from '../helpers/hf-fixtures.js';
import { testOutputDir } from '../helpers/test-cache.js';
import { ensureQuantizedVariant } from '../../src/models/quantize/quantize-cache.js';
import { createOnnxNodeEngine } from '../../engines/onnx/onnx-node-engine.js';

/** What tools/quantize-reference.py recorded from onnxruntime's quantize_dynamic for one fixture. */
interface QuantizeReference {
  readonly sizeBytes: number;
  readonly valueInfoBytes: number;
  readonly output: string;
  readonly dims: number[];
  readonly logits: number[];
}

function argmaxRows(values: ArrayLike<number>, width: number): number[] {
  const out: number[] = [];
  for (let r = 0; r < values.length / width; r++) {
    let best = 0;
    for (let i = 1; i < width; i++) if ((values[r * width + i] as number) > (values[r * width + best] as number)) best = i;
    out.push(best);
  }
  return out;
}

test("inferbench's q8 matches onnxruntime quantize_dynamic on every Hugging Face fixture: size within 5%, logits within 1e-3, same argmax", async () => {
  const engine = createOnnxNodeEngine('cpu');
  const cacheRoot = testOutputDir('quantize-reference');
  for (const arch of hfFixtureArchs()) {
    const fixture = readHfFixture(arch);
    const ref = JSON.parse(readFileSync(join(fixture.dir, 'quantize-reference.json'), 'utf8')) as QuantizeReference;
    const made = await ensureQuantizedVariant({ sourceDir: fixture.dir, dtype: 'q8', cacheRoot });
    assert.ok('dir' in made, `${arch}: ${'skip' in made ? made.skip : ''}`);
    assert.match(made.method, /MatMulInteger/);
    const path = join(made.dir, made.file);
    // quantize_dynamic also saves ONNX shape inference's value_info (type hints, no weights); the weights and graph are compared.
    const expected = ref.sizeBytes - ref.valueInfoBytes;
    const size = statSync(path).size;
    assert.ok(Math.abs(size / expected - 1) <= 0.05, `${arch}: ${size} bytes vs quantize_dynamic's ${expected}`);
    const session = await engine.open(path, { threads: 1, precision: 'int8' });
    const logits = (await session.run(fixture.feeds))[ref.output];
    await session.dispose();
    assert.ok(logits, `${arch}: no ${ref.output}`);
    assert.deepEqual(logits.dims, ref.dims);
    let maxDiff = 0;
    for (let i = 0; i < ref.logits.length; i++) maxDiff = Math.max(maxDiff, Math.abs(Number(logits.data[i]) - (ref.logits[i] as number)));
    assert.ok(maxDiff <= 1e-3, `${arch}: logits differ from quantize_dynamic's by ${maxDiff}`);
    const width = ref.dims[ref.dims.length - 1] as number;
    assert.deepEqual(argmaxRows(logits.data as Float32Array, width), argmaxRows(ref.logits, width), `${arch}: argmax`);
  }
});
