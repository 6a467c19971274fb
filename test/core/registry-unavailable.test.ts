import { test } from 'node:test';
import assert from 'node:assert/strict';
import { EngineRegistry } from '../../src/core/engine-registry.js';
import { CellSkip, UserError } from '../../src/core/errors.js';
import { createMockEngine } from '../helpers/mock-engine.js';

test('asking only for unavailable engines lists each one with its reason and fix', async () => {
  let created = 0;
  const registry = new EngineRegistry({
    'gpu-a': async () => {
      created++;
      return createMockEngine({ id: 'gpu-a', availability: { available: false, reason: 'no NVIDIA GPU found', enable: 'use a GPU machine' } });
    },
    'gpu-b': async () => createMockEngine({ id: 'gpu-b', availability: { available: false, reason: 'libfoo missing', enable: 'install libfoo' } }),
  });
  await assert.rejects(registry.selectRunnable(['gpu-a', 'gpu-b']), (err: unknown) => {
    assert.ok(err instanceof UserError);
    assert.match(err.message, /gpu-a: unavailable: no NVIDIA GPU found \(use a GPU machine\)/);
    assert.match(err.message, /gpu-b: unavailable: libfoo missing \(install libfoo\)/);
    return true;
  });
  await assert.rejects(registry.require('gpu-a'), CellSkip);
  assert.equal(created, 1, 'each engine is created and probed once');
});

test('an engine whose module fails to import is unavailable, not a crash', async () => {
  const registry = new EngineRegistry({
    broken: async () => {
      throw new Error('Cannot find module x');
    },
  });
  const status = await registry.status('broken');
  assert.equal(status.availability.available, false);
  assert.match(JSON.stringify(status.availability), /Cannot find module x/);
});
