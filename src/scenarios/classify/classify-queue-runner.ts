/**
 * What an `inferbench worker` does with one accepted classify job (schema
 * CLASSIFY_JOB_SCHEMA, its runner registered in src/core/queue-runners.ts
 * when the worker loads the scenario's queue jobs, `queueJobs` in
 * classify-scenario.ts): get the rows and the model the way the
 * job names them (the embedded default; a Hub id through this machine's own
 * Hugging Face cache; a generated architecture regenerated from its config;
 * a local folder or file fetched from the coordinator by hash), check both
 * hashes against the coordinator's, then measure the open group with the
 * sweep that isolates every open in a fresh child process, through the
 * worker's launchers, exactly as a local run does.
 */
import { UserError } from '../../core/errors.js';
import type { CellHost, CellResult } from '../../core/results.js';
import { parseDtypes } from '../../core/dtypes.js';
import { datasetSourceString, openDataset } from '../../../datasets/open-dataset.js';
import { HUB_PREFIX } from '../../../datasets/hub-dataset.js';
import { resolveColumns } from '../../../datasets/columns.js';
import { hashModelFolder, hashRows } from '../../core/file-manifest.js';
import { CLASSIFY_JOB_SCHEMA, type ClassifyQueueJob } from './classify-queue-job.js';
import { FixedLengthModel } from '../../models/fixed-length-model.js';
import { ClassifyBenchmark } from './classify-benchmark.js';
import { planModels } from '../model-plan.js';
import { withSequenceLength } from './classify-sweep.js';
import { registerQueueJobRunner, type JobRunnerContext } from '../../core/queue-runners.js';

/** The dataset source string this worker opens for a job, fetching served files first. */
async function datasetSource(job: ClassifyQueueJob, fetchFiles: JobRunnerContext['fetchFiles']): Promise<string | undefined> {
  const options = { ...(job.datasetConfig !== null ? { config: job.datasetConfig } : {}), ...(job.split !== null ? { split: job.split } : {}) };
  if (job.dataset.kind === 'embedded') return undefined;
  // A Hub id goes to the Hub as one (the hf:// prefix), never to a path of this disk.
  const source = job.dataset.kind === 'hub' ? `${HUB_PREFIX}${job.dataset.id}` : await fetchFiles(job.dataset.manifest, 'dataset.manifest');
  return datasetSourceString(source, options);
}

/** Measures one job; throws (a refusal) when the rows or the model differ from the coordinator's. */
async function runClassifyJob(job: ClassifyQueueJob, retries: number, ctx: JobRunnerContext): Promise<CellResult[]> {
  const source = await datasetSource(job, ctx.fetchFiles);
  const opened = await openDataset(source);
  const dataset = job.limit === null ? opened : opened.take(job.limit);
  const rowsHash = await hashRows(dataset);
  if (rowsHash !== job.rowsHash) {
    throw new UserError(`the rows of ${opened.name} differ from the coordinator's (sha256 ${rowsHash.slice(0, 12)}… here, ${job.rowsHash.slice(0, 12)}… there); refused so every host measures the same rows`);
  }
  const columns = resolveColumns(await opened.columns(), { text: job.textColumn ?? undefined, label: job.labelColumn ?? undefined });
  const m = job.model;
  const models = m.kind === 'hub' ? [m.id] : m.kind === 'files' ? [await ctx.fetchFiles(m.manifest, 'model.manifest')] : [];
  const plan = await planModels({
    models,
    hubOnly: m.kind === 'hub',
    architectures: m.kind === 'architecture' ? [m.spec] : [],
    dtypes: job.dtype === null ? null : parseDtypes([job.dtype]),
    revision: m.kind === 'hub' ? m.revision : null,
    registry: ctx.registry,
    dataset,
    columns,
  });
  const row = plan[0];
  if (!row?.model) throw new UserError(`model ${job.row} cannot run here: ${row?.skipReason ?? 'nothing planned'}`);
  const modelHash = await hashModelFolder(row.model.dir, row.model.onnxFile);
  if (modelHash !== job.modelHash) {
    throw new UserError(`model ${job.row} here (sha256 ${modelHash.slice(0, 12)}…) differs from the coordinator's (${job.modelHash.slice(0, 12)}…); refused`);
  }
  const seq = job.sequenceLength;
  const model = seq === null ? row.model : new FixedLengthModel(row.model, seq, row.model.vocabSize, row.model.maxLength);
  const cells: CellResult[] = [];
  const benchmark = new ClassifyBenchmark({
    ...(source !== undefined ? { dataset: source } : {}),
    batchSizes: job.batchSizes,
    threads: [job.threads],
    limit: job.limit,
    warmupBatches: job.warmupBatches,
    rounds: job.rounds,
    stop: job.stop,
    maxCv: job.maxCv,
    parity: job.parity,
    isolate: true,
    textColumn: job.textColumn ?? undefined,
    labelColumn: job.labelColumn ?? undefined,
    registry: ctx.registry,
    engineModules: ctx.engineModules,
    onCell: (cell) => void cells.push(cell),
  }, ctx.launchers);
  await benchmark.run(model, [job.engine]);
  const host: CellHost = retries > 0 ? { ...ctx.host, retries } : ctx.host;
  return cells.map((cell) => ({ ...withSequenceLength(cell, seq), model: job.row, host }));
}

registerQueueJobRunner<ClassifyQueueJob>(CLASSIFY_JOB_SCHEMA, runClassifyJob);
