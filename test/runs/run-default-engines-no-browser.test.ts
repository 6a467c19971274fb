import { test } from 'node:test';
import assert from 'node:assert/strict';
import { EngineRegistry } from '../../src/core/engine-registry.js';
import { defaultEngineIds } from '../../src/scenarios/run-driver.js';
import { createMockEngine } from '../helpers/mock-engine.js';

/**
 * A run without `--engines` sweeps the Node engines only: browser engines
 * are opt-in (named with --engines), and choosing the defaults must not probe
 * them, since a probe may start Chromium.
 */
test('default engines leave out browser engines without probing them', async () => {
  let browserProbes = 0;
  const node = createMockEngine({ id: 'node-a' });
  const browser = { ...createMockEngine({ id: 'page-b' }), runsIn: 'browser' as const, probe: async () => { browserProbes++; return { available: true as const, versions: {} }; } };
  const registry = new EngineRegistry({ 'node-a': async () => node, 'page-b': async () => browser });
  assert.deepEqual(await defaultEngineIds(registry), ['node-a']);
  assert.equal(browserProbes, 0);
  assert.deepEqual(registry.parseNames(['page-b']), ['page-b']);
});
