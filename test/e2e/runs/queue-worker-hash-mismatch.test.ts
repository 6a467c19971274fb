import { test } from 'node:test';
import assert from 'node:assert/strict';
import { defaultRegistry } from '../../../engines/registry.js';
import { openDataset } from '../../../datasets/open-dataset.js';
import { UserError } from '../../../src/core/errors.js';
import { hashRows } from '../../../src/core/file-manifest.js';
import { CLASSIFY_JOB_SCHEMA, type ClassifyQueueJob } from '../../../src/scenarios/classify/classify-queue-job.js';
import { runQueueJob, type JobRunnerContext } from '../../../src/core/queue-runners.js';
import { loadQueueJobs } from '../../../src/scenarios/scenario-jobs.js';
import { BUILTIN_LAUNCHERS } from '../../../src/runs/builtin-launchers.js';
import { useTestCache } from '../../helpers/test-cache.js';

test('a worker refuses a job whose regenerated model or rows differ from the coordinator\'s hashes, before measuring', async () => {
  useTestCache();
  await loadQueueJobs();
  const rowsHash = await hashRows((await openDataset()).take(16));
  const job: ClassifyQueueJob = {
    schema: CLASSIFY_JOB_SCHEMA, runId: 'r1', row: 'tiny-bert (embedded default)', model: { kind: 'default' }, dtype: null, modelHash: 'f'.repeat(64),
    dataset: { kind: 'embedded' }, datasetConfig: null, split: null, rowsHash, textColumn: null, labelColumn: null, limit: 16,
    sequenceLength: null, engine: 'onnx-cpu', threads: null, batchSizes: [1], rounds: 1, warmupBatches: 0,
    stop: { minTimeMs: 100, minBatches: 1, maxTimeMs: 1000 }, maxCv: 1, parity: { reference: null, tolerance: 1e-4 }, workers: null, refused: {},
  };
  const fetchFiles = (): Promise<string> => Promise.reject(new Error('this job names no served files'));
  const ctx: JobRunnerContext = { registry: defaultRegistry, engineModules: [], host: { name: 'w', id: '0'.repeat(12) }, launchers: BUILTIN_LAUNCHERS, fetchFiles };
  await assert.rejects(runQueueJob({ kind: CLASSIFY_JOB_SCHEMA, payload: job }, 0, ctx), (err: unknown) => err instanceof UserError && /model tiny-bert \(embedded default\) here \(sha256 [0-9a-f]{12}…\) differs from the coordinator's \(ffffffffffff…\); refused/.test(err.message));
  const otherRows: ClassifyQueueJob = { ...job, rowsHash: 'e'.repeat(64) };
  await assert.rejects(runQueueJob({ kind: CLASSIFY_JOB_SCHEMA, payload: otherRows }, 0, ctx), (err: unknown) => err instanceof UserError && /the rows of .* differ from the coordinator's/.test(err.message));
});
