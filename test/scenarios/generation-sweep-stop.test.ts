import assert from 'node:assert/strict';
import { test } from 'node:test';
import { defaultGenerator } from '../../src/models/default-generator.js';
import { EngineRegistry } from '../../src/core/engine-registry.js';
import type { Engine } from '../../src/core/engine.js';
import { BUILTIN_ENGINE_FACTORIES } from '../../engines/registry.js';
import { runGenerationSweep } from '../../src/scenarios/generate/generation-sweep.js';
import { createMockEngine } from '../helpers/mock-engine.js';
import { useTestCache } from '../helpers/test-cache.js';

useTestCache();

test('a stop during a cell keeps its measured calls as an interrupted cell (TTFT, TPOT), and no later engine opens', async () => {
  const model = await defaultGenerator();
  const real = await new EngineRegistry({ 'onnx-cpu': BUILTIN_ENGINE_FACTORIES['onnx-cpu'] as never }).require('onnx-cpu');
  const stop = new AbortController();
  let runs = 0;
  // onnx-cpu whose fourth session call (inside the second measured generate call) stops the sweep, as a signal would.
  const stopping: Engine = {
    ...real,
    id: 'stopping',
    async open(path, opts) {
      const session = await real.open(path, opts);
      return { ...session, run: async (inputs) => { if (++runs === 4) stop.abort(); return session.run(inputs); }, describe: () => session.describe(), dispose: () => session.dispose() };
    },
  };
  const registry = new EngineRegistry({});
  registry.register(stopping);
  const later = createMockEngine({ id: 'later' });
  registry.register(later);
  const cells = await runGenerationSweep(model, {
    engines: ['stopping', 'later'],
    batchSizes: [1],
    promptLengths: [4],
    newTokens: [3],
    runs: 5,
    warmupRuns: 0,
    texts: ['hello there'],
    registry,
    signal: stop.signal,
  });
  assert.equal(later.log.opens, 0, 'no engine open after the stop');
  const [cut, notRun] = cells;
  assert.equal(cut?.state, 'completed', JSON.stringify(cut).slice(0, 300));
  assert.ok(cut?.state === 'completed' && cut.interrupted === true && cut.samples.length >= 1 && cut.samples.length < 5, `kept ${cut?.state === 'completed' ? cut.samples.length : 0} calls`);
  assert.ok(cut.ttft.count >= 1 && cut.tpot !== null);
  assert.notEqual(cut.verdict?.status, 'VALID');
  assert.deepEqual([notRun?.engine, notRun?.state], ['later', 'skipped']);
  assert.match(notRun?.state === 'skipped' ? notRun.reason : '', /not run: the sweep was interrupted/);
});
