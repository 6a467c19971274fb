import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { IsolatedJob } from '../../../src/scenarios/classify/open-group.js';
import { isolatedLaunch } from '../../../src/launchers/isolated-launcher.js';
import type { Launch } from '../../../src/core/launch-jobs.js';
import type { CellKey } from '../../../src/core/results.js';
import type { MeasuredRound } from '../../../src/scenarios/classify/measure-cell.js';
import { DEFAULT_STOP_RULE } from '../../../src/core/stop-rule.js';

test('a job that cannot be sent to the isolated child errors its cells instead of hanging', async () => {
  const job = {
    // A function cannot cross the process boundary: `--dtype constructor` once put one here.
    model: { kind: 'text-classification', dir: '/nowhere', name: 'm', onnxFile: 'onnx/model.onnx', precision: 'fp32', extra: () => 1 },
    dataset: null,
    textColumn: null,
    labelColumn: null,
    limit: 8,
    engine: 'onnx-cpu',
    threads: null,
    keys: [{ model: 'm', engine: 'onnx-cpu', batchSize: 1, requestedThreads: null }],
    stop: DEFAULT_STOP_RULE,
    warmupBatches: 2,
    parityRows: 0,
    round: 0,
  } as unknown as IsolatedJob;
  const launch: Launch<CellKey, MeasuredRound> = {
    kind: 'classify',
    payload: job,
    keys: job.keys,
    keyId: (key) => String(key.batchSize),
    resultId: (m) => String(m.key.batchSize),
    failed: (key, reason) => ({ kind: 'failed', key, cell: { ...key, state: 'errored', reason } }),
  };
  const measured: MeasuredRound[] = [];
  const ended = await Promise.race([
    isolatedLaunch()(launch, { onStart: () => {}, onResult: async (m) => void measured.push(m) }, undefined).then(() => 'ended'),
    // Only ends a hang: starting the child on a loaded machine takes seconds, an unsent job never ends.
    new Promise((r) => setTimeout(() => r('hung'), 120_000).unref()),
  ]);
  assert.equal(ended, 'ended');
  assert.equal(measured.length, 1);
  const first = measured[0];
  assert.equal(first?.kind, 'failed');
  const cell = first?.kind === 'failed' ? first.cell : undefined;
  assert.equal(cell?.state, 'errored');
  assert.match(cell?.reason ?? '', /could not send the job to the isolated process: .*could not be cloned/);
});
