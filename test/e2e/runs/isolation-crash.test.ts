import { test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';
import { Benchmark } from '../../../src/runs/benchmark.js';
import { EngineRegistry } from '../../../src/core/engine-registry.js';
import { registerEngineModules } from '../../../src/launchers/engine-modules.js';
import { CharModel } from '../../helpers/char-model.js';
import { testOutputDir } from '../../helpers/test-cache.js';

const here = (name: string) => fileURLToPath(new URL(name, import.meta.url));

test('an isolated engine that exits mid-cell becomes an errored cell and the sweep goes on', async () => {
  const dataset = join(testOutputDir('isolation'), 'rows.jsonl');
  writeFileSync(dataset, Array.from({ length: 16 }, (_, i) => JSON.stringify({ text: `row ${i}`, label: i % 2 })).join('\n'));
  const engineModules = [here('../../helpers/crash-engines.js')];
  const registry = new EngineRegistry({});
  await registerEngineModules(engineModules, registry);
  const bench = new Benchmark({
    dataset,
    batchSizes: [1, 4],
    registry,
    engineModules,
    isolate: true,
    modelSpec: { kind: 'module', path: here('../../helpers/char-model.js'), exportName: 'CharModel' },
    stop: { minTimeMs: 0, minBatches: 1 },
    parity: { reference: 'steady' },
  });
  const cells = await bench.run(new CharModel(), ['crasher', 'steady']);
  const byKey = Object.fromEntries(cells.map((c) => [`${c.engine}/${c.batchSize}`, c]));
  assert.equal(byKey['crasher/1']?.state, 'errored');
  assert.match(JSON.stringify(byKey['crasher/1']), /isolated process exited with code 3 while measuring this cell/);
  assert.equal(byKey['crasher/4']?.state, 'errored');
  assert.match(JSON.stringify(byKey['crasher/4']), /before this cell ran/);
  assert.equal(byKey['steady/1']?.state, 'completed');
  assert.equal(byKey['steady/4']?.state, 'completed');
  const steady = byKey['steady/4'];
  assert.ok(steady?.state === 'completed' && steady.memory && steady.memory.peakRssBytes > 0, 'memory is measured in the child');
});
