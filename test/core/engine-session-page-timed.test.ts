import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readyCall, type EngineSession } from '../../src/core/engine-session.js';

test('a prepared call that times itself (a browser page) is timed by its own clock, not the transport around it', async () => {
  const session: EngineSession = {
    run: async () => ({}),
    prepareCall: () => ({
      run: () => new Promise<void>((resolve) => setTimeout(resolve, 50)),
      outputs: () => ({}),
      elapsedMs: () => 2,
    }),
    describe: () => ({ engine: 'page', backend: 'wasm', threads: 1, precision: 'fp32', versions: {} }),
    dispose: async () => undefined,
  };
  const { startedAt, endedAt } = await readyCall(session, {}).run();
  assert.equal(endedAt - startedAt, 2);
});
