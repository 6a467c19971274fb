import { test } from 'node:test';
import assert from 'node:assert/strict';
import { EngineRegistry } from '../../src/index.js';
import { UserError } from '../../src/core/errors.js';

test('an unknown engine name is a user error listing every valid name', () => {
  const registry = new EngineRegistry();
  assert.throws(
    () => registry.parseNames(['onnx-cpu', 'onnx-gpu']),
    (err: unknown) => {
      assert.ok(err instanceof UserError);
      assert.match(err.message, /unknown engine "onnx-gpu" in --engines/);
      for (const id of ['onnx-cpu', 'onnx-cuda', 'onnx-tensorrt', 'onnx-wasm', 'tfjs-node', 'tfjs-node-gpu', 'tfjs-wasm', 'tfjs-cpu']) {
        assert.ok(err.fix?.includes(id), `fix lists ${id}`);
      }
      return true;
    },
  );
});
