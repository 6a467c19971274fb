import { test } from 'node:test';
import assert from 'node:assert/strict';
import { float16Bits } from '../../src/models/quantize/fp16.js';
import { halfToFloat } from '../../src/core/tensor.js';

test('float32 → float16 bits round to nearest even and read back through halfToFloat', () => {
  const cases: [number, number][] = [
    [1, 0x3c00], [-2, 0xc000], [0.1, 0x2e66], [65504, 0x7bff], [65520, 0x7c00], [1e-7, 0x0002],
    [0, 0x0000], [Infinity, 0x7c00], [2 ** -24, 0x0001], [1 + 2 ** -11, 0x3c00], [1 + 3 * 2 ** -11, 0x3c02],
  ];
  for (const [value, bits] of cases) assert.equal(float16Bits(value), bits, `${value}`);
  assert.ok(Number.isNaN(halfToFloat(float16Bits(NaN))));
  for (const v of [0.333, -7.25, 1234.5, 6.1e-5]) assert.ok(Math.abs(halfToFloat(float16Bits(v)) - v) <= Math.abs(v) * 2 ** -11);
});
