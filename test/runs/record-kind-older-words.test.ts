import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { readRunRecord } from '../../reports/read-run.js';
import { recordKindOf } from '../../src/core/record-kind.js';
import { scenarioOfRecord } from '../../src/scenarios/scenario-registry.js';
import '../../src/runs/builtin-scenarios.js';
import { testOutputDir } from '../helpers/test-cache.js';

const record = (kind: string | undefined) => ({
  schemaVersion: 1, ...(kind === undefined ? {} : { kind }), id: `r-${kind ?? 'classify'}`, state: 'completed',
  startedAt: '2026-01-01T00:00:00.000Z', finishedAt: null, config: {}, environment: {}, models: [], cells: [],
});

test('records written with the older kind words (generation, training, server) read as generate, train and load', async () => {
  const dir = testOutputDir('record-kind-older-words');
  const cases: [string | undefined, string | undefined][] = [
    ['generation', 'generate'], ['training', 'train'], ['server', 'load'],
    ['generate', 'generate'], ['train', 'train'], ['load', 'load'], [undefined, undefined],
  ];
  for (const [written, read] of cases) {
    const folder = join(dir, written ?? 'classify');
    mkdirSync(folder, { recursive: true });
    writeFileSync(join(folder, 'results.json'), JSON.stringify(record(written)));
    const loaded = await readRunRecord(folder);
    assert.equal((loaded.record as { kind?: string }).kind, read, `a record of kind ${written} reads as ${read}`);
    assert.equal(recordKindOf(record(written)), read);
  }
  // Each older word finds its scenario in the registry, as show, compare and the dashboard look it up.
  const scenarios: [string | undefined, string][] = [['generation', 'generate'], ['training', 'train'], ['server', 'load'], [undefined, 'run']];
  for (const [older, command] of scenarios) assert.equal(scenarioOfRecord(record(older)).command, command);
});
