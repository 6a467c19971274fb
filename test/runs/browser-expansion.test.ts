import { test } from 'node:test';
import assert from 'node:assert/strict';
import { resolveRunConfig } from '../../src/scenarios/classify/resolve-run-config.js';
import { UserError } from '../../src/core/errors.js';
import { defaultRegistry } from '../../engines/registry.js';

const NAMES = { engines: '--engines', browsers: '--browsers' };

test('--browsers runs each browser engine in each browser, as its own engine id, Node engines left as they are', () => {
  const config = resolveRunConfig({ engines: ['onnx-cpu', 'browser-onnx-wasm', 'browser-tfjs-wasm'], browsers: ['chromium', 'firefox', 'webkit'] }, NAMES, defaultRegistry);
  assert.deepEqual(config.engines, [
    'onnx-cpu',
    'browser-onnx-wasm',
    'browser-onnx-wasm@firefox',
    'browser-onnx-wasm@webkit',
    'browser-tfjs-wasm',
    'browser-tfjs-wasm@firefox',
    'browser-tfjs-wasm@webkit',
  ]);
});

test('without chromium in --browsers the bare (Chromium) id is not run; opt-ins are browsers of their own', () => {
  const config = resolveRunConfig({ engines: ['browser-onnx-webgpu'], browsers: ['firefox-webgpu', 'webkit-sab'] }, NAMES, defaultRegistry);
  assert.deepEqual(config.engines, ['browser-onnx-webgpu@firefox-webgpu', 'browser-onnx-webgpu@webkit-sab']);
});

test('without --browsers nothing changes (Chromium)', () => {
  assert.deepEqual(resolveRunConfig({ engines: ['browser-onnx-wasm'] }, NAMES, defaultRegistry).engines, ['browser-onnx-wasm']);
});

test('bad --browsers: an unknown browser, no browser engine, or no --engines is a user error naming the fix', () => {
  assert.throws(() => resolveRunConfig({ engines: ['browser-onnx-wasm'], browsers: ['safari'] }, NAMES, defaultRegistry), (e: unknown) => e instanceof UserError && /unknown browser "safari" in --browsers/.test(e.message) && /chromium, firefox/.test(e.fix ?? ''));
  assert.throws(() => resolveRunConfig({ engines: ['onnx-cpu'], browsers: ['firefox'] }, NAMES, defaultRegistry), (e: unknown) => e instanceof UserError && /--browsers applies to browser engines/.test(e.message));
  assert.throws(() => resolveRunConfig({ browsers: ['firefox'] }, NAMES, defaultRegistry), (e: unknown) => e instanceof UserError && /--browsers needs --engines/.test(e.message));
});
