/**
 * The classification scenario's unit of work: open one engine at one thread
 * count and measure every batch size on it, and the job that runs it on
 * every launcher (in this process, beside a browser page, in a fresh child
 * process, registered at the end of this file), so every launcher runs
 * exactly the same measurement. The job that a child runs rebuilds the
 * model and the rows from plain data; building that data from a group is
 * the parent's (`Benchmark`, src/runs/benchmark.ts), so the model passes
 * through this file on the child's side only.
 */
import { validPairs } from '../../../datasets/sts-pairs.js';
import type { Engine } from '../../core/engine.js';
import type { EngineRegistry } from '../../core/engine-registry.js';
import type { EngineSession } from '../../core/engine-session.js';
import { UserError } from '../../core/errors.js';
import type { CellKey, OpenPhases, RowFingerprint } from '../../core/results.js';
import { withImportBefore } from '../../core/open-phases.js';
import { readHostNoise } from '../../core/host-noise.js';
import { registerChildJob, registerLocalJob, registerPageJob } from '../../core/launch-jobs.js';
import type { StopRule } from '../../core/stop-rule.js';
import type { TensorMap } from '../../core/tensor.js';
import { openOn, type BenchmarkModel } from '../../models/benchmark-model.js';
import { modelFromSpec } from '../../models/model-from-spec.js';
import type { ModelSpec } from '../../models/model-spec.js';
import { LABEL_COLUMN_CANDIDATES, resolveColumns, type ResolvedColumns } from '../../../datasets/columns.js';
import type { DataRow, Dataset } from '../../../datasets/dataset.js';
import { openDataset } from '../../../datasets/open-dataset.js';
import { rowFingerprint } from '../../../datasets/row-fingerprint.js';
import { RssSampler } from '../rss-sampler.js';
import { failedRound, measureRound, type MeasureContext, type MeasuredRound, type Prepare } from './measure-cell.js';

/** Receives one round of each cell of an open group as it is measured. */
export interface GroupHooks {
  readonly onStart: (key: CellKey) => void;
  readonly onMeasured: (measured: MeasuredRound) => Promise<void>;
}

/** The rows and column mapping every cell of one sweep streams. */
export interface PreparedData {
  readonly dataset: Dataset;
  readonly columns: ResolvedColumns;
  /** The count and content hash of the rows every cell streams; computed on first use (one extra read of the rows), then kept. */
  readonly rowSet: () => Promise<RowFingerprint>;
}

/** Where the rows come from and how they are cut, as the user gave it. */
export interface DataSource {
  readonly dataset: Dataset | string | undefined;
  readonly limit: number | null;
  /** Rows at the start left out of every cell: a static-INT8 variant was calibrated on them, so accuracy counts from after them. */
  readonly skipRows?: number;
  readonly textColumn: string | undefined;
  readonly labelColumn: string | undefined;
  readonly datasetProcessCallback?: ((dataset: Dataset) => Dataset | Promise<Dataset>) | undefined;
}

/** How each cell of a group is measured in one round. */
export interface MeasureSettings {
  /** One round's share of the cell's stop rule (`perRoundRule`). */
  readonly stop: StopRule;
  /** Untimed batches at least, beyond the warm pass over every row. */
  readonly warmupBatches: number;
  /** Rows of the warm pass whose outputs are kept for parity (0 keeps none). */
  readonly parityRows: number;
  /** `run --profile`: the round (from 0; the last one) after whose timed loop each cell gets its profiled pass, or an earlier one that saw no whole pass (its cell runs no more); absent or null: none. */
  readonly profileRound?: number | null;
}

/** One open group: a model on one engine at one thread count, at every key's batch size. */
export interface OpenGroup {
  readonly model: BenchmarkModel;
  readonly engine: string | Engine;
  readonly threads: number | null;
  readonly keys: readonly CellKey[];
  readonly data: PreparedData;
  readonly prepare: Prepare;
  readonly settings: MeasureSettings;
  readonly registry: EngineRegistry;
  readonly signal: AbortSignal | undefined;
  /** Which round of its cells this open measures, from 0: every round is a fresh open. */
  readonly round: number;
  /** Set by the launcher: a fresh child process for this open, or this process beside others. Absent: in-process. */
  readonly isolation?: 'isolated' | 'in-process';
}

export { notRunInterrupted } from '../../core/results.js';

/**
 * Opens the dataset and applies the dataset callback and the row limit once;
 * every cell then re-streams the same rows in the same order.
 */
export async function prepareData(source: DataSource, needTextColumn: boolean): Promise<PreparedData> {
  let dataset = typeof source.dataset === 'object' ? source.dataset : await openDataset(source.dataset);
  if (source.datasetProcessCallback) dataset = await source.datasetProcessCallback(dataset);
  if (source.skipRows) dataset = dataset.skip(source.skipRows);
  if (source.limit !== null) dataset = dataset.take(source.limit);
  const columnNames = await dataset.columns();
  const columns = needTextColumn
    ? resolveColumns(columnNames, { text: source.textColumn, label: source.labelColumn })
    : {
        text: source.textColumn ?? columnNames[0] ?? 'text',
        // Accuracy still needs the label column when the user builds inputs themselves.
        label: source.labelColumn ?? LABEL_COLUMN_CANDIDATES.find((c) => columnNames.includes(c)) ?? null,
      };
  // STS pairs that cannot be scored never reach an engine: the run refused them before opening, or noted them as skipped (--skip-bad-rows).
  dataset = validPairs(dataset, columns);
  let rowSet: Promise<RowFingerprint> | undefined;
  const text = columns.text;
  for await (const _row of dataset.take(1)) return { dataset, columns, rowSet: () => (rowSet ??= rowFingerprint(dataset, text)) };
  throw new UserError(`dataset ${dataset.name} has no rows after the dataset callback`, 'check the filter in datasetProcessCallback, or use a dataset with rows');
}

/** The input builder of a cell: the user's callback, else the model's own `prepareBatch`. */
export function prepareFn(
  model: BenchmarkModel | undefined,
  columns: ResolvedColumns,
  custom: ((rows: readonly DataRow[], columns: ResolvedColumns) => TensorMap | Promise<TensorMap>) | undefined,
): Prepare {
  if (custom) return (rows) => custom(rows, columns);
  if (model) return (rows) => model.prepareBatch(rows, columns);
  throw new UserError('Benchmark.execute() has no way to build model inputs', 'pass dataItemProcessCallback to new Benchmark(), or { model } to execute()');
}

/** What `measureRound` needs besides the session. */
export function measureContext(
  data: PreparedData,
  prepare: Prepare,
  settings: MeasureSettings,
  run: {
    readonly sampler: RssSampler;
    readonly openMs: number;
    readonly signal: AbortSignal | undefined;
    readonly round: number;
    readonly noiseBase: MeasureContext['noiseBase'];
    /** Batch sizes measured before on the same open (empty for the first one after it). */
    readonly measuredBefore?: readonly number[];
    readonly phases?: OpenPhases | null;
    readonly isolation?: 'isolated' | 'in-process';
    readonly rowSet?: RowFingerprint | null;
  },
): MeasureContext {
  return {
    dataset: data.dataset,
    prepare,
    stop: settings.stop,
    warmupBatches: settings.warmupBatches,
    sampler: run.sampler,
    openMs: run.openMs,
    labelColumn: data.columns.label,
    stsScoreColumn: data.columns.pair?.score ?? null,
    parityRows: settings.parityRows,
    signal: run.signal,
    round: run.round,
    noiseBase: run.noiseBase,
    measuredBefore: run.measuredBefore ?? [],
    phases: run.phases ?? null,
    isolation: run.isolation ?? 'in-process',
    rowSet: run.rowSet ?? null,
    ...(settings.profileRound != null ? { profile: settings.profileRound === run.round ? ('always' as const) : ('if-partial' as const) } : {}),
  };
}

/**
 * Opens `model` on one engine (`openOn`: the model's file of the format the
 * engine opens) with its parts timed: the engine's probe (which imports its
 * package, cold only in a fresh process) apart from the session open, whose
 * own parts the session reports (`openPhases`). `openMs` is the whole.
 */
export async function openTimed(
  model: BenchmarkModel,
  engineRef: string | Engine,
  threads: number | null,
  registry: EngineRegistry,
): Promise<{ readonly session: EngineSession; readonly openMs: number; readonly phases: OpenPhases | null }> {
  const started = performance.now();
  const engine = typeof engineRef === 'string' ? await registry.require(engineRef) : engineRef;
  // A tfjs format exported into the cache on first use is one-time work, not this open: it is done before the open's clock.
  const exportStarted = performance.now();
  await model.modelFile(engine.format);
  const exportMs = performance.now() - exportStarted;
  const session = await openOn(engine, model, { threads });
  const phases = session.openPhases?.() ?? null;
  return { session, openMs: performance.now() - started - exportMs, phases: phases === null ? null : withImportBefore(phases, exportStarted - started) };
}

/** What the parity reference engine needs to run its own untimed pass when it is not in the sweep. */
export interface ReferenceSource {
  readonly open: () => Promise<EngineSession>;
  readonly context: (key: CellKey) => MeasureContext;
  readonly modelName: string;
}

/**
 * How `reference` runs a pass of its own over the sweep's rows: opened in
 * this process on first use (no open group: it is never timed), fed by the
 * same rows and input builder as every cell.
 */
export function referenceSource(
  model: BenchmarkModel,
  reference: string,
  data: PreparedData,
  prepare: Prepare,
  settings: MeasureSettings,
  run: { readonly registry: EngineRegistry; readonly sampler: RssSampler; readonly signal: AbortSignal | undefined },
): ReferenceSource {
  return {
    open: async () => (await openTimed(model, reference, null, run.registry)).session,
    context: () => measureContext(data, prepare, settings, { sampler: run.sampler, openMs: 0, signal: run.signal, round: 0, noiseBase: null }),
    modelName: model.name,
  };
}

/**
 * Opens one engine at one thread count and measures one round of every key
 * (batch size) on it, handing each round to `hooks`. An open failure becomes
 * a failed round for every key; an abort reports the keys not yet started
 * as interrupted.
 */
export async function measureOpenGroup(group: OpenGroup, hooks: GroupHooks): Promise<void> {
  const noiseBase = readHostNoise(null).cpu;
  let opened: Awaited<ReturnType<typeof openTimed>>;
  try {
    opened = await openTimed(group.model, group.engine, group.threads, group.registry);
  } catch (err) {
    for (const k of group.keys) await hooks.onMeasured(failedRound(k, err));
    return;
  }
  const { session, openMs, phases } = opened;
  const sampler = new RssSampler();
  // Read once per open, before any timing: the rows every key of the group streams.
  const rowSet = await group.data.rowSet();
  const measuredBefore: number[] = [];
  try {
    for (const key of group.keys) {
      if (group.signal?.aborted) {
        await hooks.onMeasured({ kind: 'interrupted', key });
        continue;
      }
      hooks.onStart(key);
      const context = measureContext(group.data, group.prepare, group.settings, {
        sampler,
        openMs,
        signal: group.signal,
        round: group.round,
        noiseBase,
        measuredBefore: [...measuredBefore],
        phases,
        isolation: group.isolation ?? 'in-process',
        rowSet,
      });
      await hooks.onMeasured(await measureRound(key, session, context));
      measuredBefore.push(key.batchSize);
    }
  } finally {
    await sampler.dispose();
    await session.dispose().catch(() => {});
  }
}

/*
 * The classify job for every launcher, each registered under 'classify' in
 * its launcher's table (src/core/launch-jobs.ts): in this process and
 * beside a browser page the group itself is the payload; in a child process
 * the plain data the child rebuilds the group from. They sit beside
 * `measureOpenGroup` so that a model passes through this one file of the
 * scenario on every path (test/repo/architecture-model-path.test.ts).
 */

/** The classify job in this process (the in-process launcher): the group itself is the payload. */
registerLocalJob<OpenGroup, CellKey, MeasuredRound>('classify', (group, io) => measureOpenGroup(group, { onStart: io.start, onMeasured: io.result }));

/** The classify job beside a browser page (the browser launcher): the group, on the engine bound to the page. */
registerPageJob<OpenGroup, CellKey, MeasuredRound>('classify', (group, io, engine) => measureOpenGroup({ ...group, engine }, { onStart: io.start, onMeasured: io.result }));

/** What a child needs to rebuild a group's model and rows, since functions and objects cannot cross. */
export interface ChildSource {
  readonly model: ModelSpec;
  /** Dataset path or id; null for the embedded default. */
  readonly dataset: string | null;
  readonly textColumn: string | null;
  readonly labelColumn: string | null;
  readonly limit: number | null;
  /** Rows at the start of the dataset left out (a static-INT8 variant's calibration rows). */
  readonly skipRows: number;
}

/** One open of one engine at one thread count, measuring one round at every batch size, in a child process. */
export interface IsolatedJob extends ChildSource {
  readonly engine: string;
  readonly threads: number | null;
  readonly keys: readonly CellKey[];
  /** This round's share of the cell's stop rule. */
  readonly stop: StopRule;
  readonly warmupBatches: number;
  readonly parityRows: number;
  /** `run --profile`: the round whose cells get a profiled pass; absent: none. */
  readonly profileRound?: number | null;
  /** Which round this process measures, from 0. */
  readonly round: number;
}

/** The classify job in a fresh child process (the isolated launcher): the model and the rows rebuilt from the job's plain data. */
registerChildJob<IsolatedJob, CellKey, MeasuredRound>('classify', async (job, io) => {
  const model = await modelFromSpec(job.model);
  const data = await prepareData(
    { dataset: job.dataset ?? undefined, limit: job.limit, skipRows: job.skipRows, textColumn: job.textColumn ?? undefined, labelColumn: job.labelColumn ?? undefined },
    true,
  );
  await measureOpenGroup(
    {
      model,
      engine: job.engine,
      threads: job.threads,
      keys: job.keys,
      data,
      prepare: prepareFn(model, data.columns, undefined),
      settings: { stop: job.stop, warmupBatches: job.warmupBatches, parityRows: job.parityRows, profileRound: job.profileRound ?? null },
      registry: io.registry,
      signal: io.signal,
      round: job.round,
      isolation: 'isolated',
    },
    { onStart: io.start, onMeasured: io.result },
  );
});
