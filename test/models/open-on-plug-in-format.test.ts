import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Engine } from '../../src/core/engine.js';
import type { ModelFormat } from '../../src/core/engine.js';
import { CellSkip } from '../../src/core/errors.js';
import { openOn } from '../../src/models/benchmark-model.js';
import { CharModel } from '../helpers/char-model.js';
import { createMockEngine } from '../helpers/mock-engine.js';

/** A mock engine of a family of its own that opens a format inferbench does not write (a GGUF file, say), logging the paths it is handed. */
function engineOf(format: ModelFormat): Engine & { readonly paths: string[] } {
  const mock = createMockEngine({ id: `mock-${format}` });
  const paths: string[] = [];
  return { ...mock, format, paths, open: (path, options) => (paths.push(path), mock.open(path, options)) };
}

/** CharModel that brings its own file of one format. */
class GgufCharModel extends CharModel {
  override nativeModelPath(format: ModelFormat): string | null {
    return format === 'gguf' ? '/models/char.gguf' : null;
  }
}

test('openOn hands an engine the file of the format it declares: the ONNX graph, or a file of a plug-in format the model brings', async () => {
  const onnx = engineOf('onnx');
  await (await openOn(onnx, new CharModel())).dispose();
  assert.deepEqual(onnx.paths, ['/nonexistent/mock.onnx']);

  const gguf = engineOf('gguf');
  await (await openOn(gguf, new GgufCharModel())).dispose();
  assert.deepEqual(gguf.paths, ['/models/char.gguf']);
});

test('a model with no file of an engine\'s format is a skipped cell that says so, and the engine is never handed a path', async () => {
  const gguf = engineOf('gguf');
  await assert.rejects(openOn(gguf, new CharModel()), (err: unknown) => err instanceof CellSkip && err.message === 'char-model has no gguf file (a model brings one through nativeModelPath)');
  assert.deepEqual(gguf.paths, []);
});
