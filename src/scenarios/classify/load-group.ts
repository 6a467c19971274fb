/**
 * The classification scenario's unit of work: load one engine at one thread
 * count and measure every batch size on it. Launchers call this in the
 * process they choose (this one, a child process, later a browser page or a
 * remote worker), so every launcher runs exactly the same measurement.
 */
import type { Engine } from '../../core/engine.js';
import type { EngineRegistry } from '../../core/engine-registry.js';
import type { EngineSession } from '../../core/engine-session.js';
import { UserError } from '../../core/errors.js';
import type { CellKey } from '../../core/results.js';
import type { StopRule, WarmupRule } from '../../core/stop-rule.js';
import type { TensorMap } from '../../core/tensor.js';
import type { BenchmarkModel } from '../../models/benchmark-model.js';
import { LABEL_COLUMN_CANDIDATES, resolveColumns, type ResolvedColumns } from '../../../datasets/columns.js';
import type { DataRow, Dataset } from '../../../datasets/dataset.js';
import { openDataset } from '../../../datasets/open-dataset.js';
import { RssSampler } from '../rss-sampler.js';
import { failedCell, measureCell, type MeasureContext, type MeasuredCell, type Prepare } from './measure-cell.js';

/** Receives the cells of one load group as they are measured. */
export interface GroupHooks {
  readonly onStart: (key: CellKey) => void;
  readonly onMeasured: (measured: MeasuredCell) => Promise<void>;
}

/** The rows and column mapping every cell of one sweep streams. */
export interface PreparedData {
  readonly dataset: Dataset;
  readonly columns: ResolvedColumns;
}

/** Where the rows come from and how they are cut, as the user gave it. */
export interface DataSource {
  readonly dataset: Dataset | string | undefined;
  readonly limit: number | null;
  readonly textColumn: string | undefined;
  readonly labelColumn: string | undefined;
  readonly datasetProcessCallback?: ((dataset: Dataset) => Dataset | Promise<Dataset>) | undefined;
}

/** How each cell of a group is measured. */
export interface MeasureSettings {
  readonly stop: StopRule;
  readonly warmup: WarmupRule;
  readonly maxCv: number;
  /** Rows of the first pass whose outputs are kept for parity (0 keeps none). */
  readonly parityRows: number;
}

/** One load group: a model on one engine at one thread count, at every key's batch size. */
export interface LoadGroup {
  readonly model: BenchmarkModel;
  readonly engine: string | Engine;
  readonly threads: number | null;
  readonly keys: readonly CellKey[];
  readonly data: PreparedData;
  readonly prepare: Prepare;
  readonly settings: MeasureSettings;
  readonly registry: EngineRegistry;
  readonly signal: AbortSignal | undefined;
}

export const INTERRUPTED = 'not run: the sweep was interrupted (Ctrl-C)';

/**
 * Opens the dataset and applies the dataset callback and the row limit once;
 * every cell then re-streams the same rows in the same order.
 */
export async function prepareData(source: DataSource, needTextColumn: boolean): Promise<PreparedData> {
  let dataset = typeof source.dataset === 'object' ? source.dataset : await openDataset(source.dataset);
  if (source.datasetProcessCallback) dataset = await source.datasetProcessCallback(dataset);
  if (source.limit !== null) dataset = dataset.take(source.limit);
  const columnNames = await dataset.columns();
  const columns = needTextColumn
    ? resolveColumns(columnNames, { text: source.textColumn, label: source.labelColumn })
    : {
        text: source.textColumn ?? columnNames[0] ?? 'text',
        // Accuracy still needs the label column when the user builds inputs themselves.
        label: source.labelColumn ?? LABEL_COLUMN_CANDIDATES.find((c) => columnNames.includes(c)) ?? null,
      };
  for await (const _row of dataset.take(1)) return { dataset, columns };
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

/** What `measureCell` needs besides the session. */
export function measureContext(data: PreparedData, prepare: Prepare, settings: MeasureSettings, sampler: RssSampler, loadMs: number, signal: AbortSignal | undefined): MeasureContext {
  return {
    dataset: data.dataset,
    prepare,
    stop: settings.stop,
    warmup: settings.warmup,
    maxCv: settings.maxCv,
    sampler,
    loadMs,
    labelColumn: data.columns.label,
    parityRows: settings.parityRows,
    signal,
  };
}

/** Loads `model` on one engine through the export method of the engine's family. */
export async function exportFor(model: BenchmarkModel, engineRef: string | Engine, threads: number | null, registry: EngineRegistry): Promise<EngineSession> {
  const engine = typeof engineRef === 'string' ? await registry.require(engineRef) : engineRef;
  const opts = { threads, engine, registry };
  return engine.target.family === 'onnx' ? model.exportToOnnx(engine.target.device, opts) : model.exportToTfjs(engine.target.backend, opts);
}

/**
 * Loads one engine at one thread count and measures every key (batch size)
 * on it, handing each measured cell to `hooks`. A load failure becomes a
 * failed cell for every key; an abort skips the keys not yet started.
 */
export async function measureLoadGroup(group: LoadGroup, hooks: GroupHooks): Promise<void> {
  const started = performance.now();
  let session: EngineSession;
  try {
    session = await exportFor(group.model, group.engine, group.threads, group.registry);
  } catch (err) {
    for (const k of group.keys) await hooks.onMeasured({ cell: failedCell(k, err), outputs: null, labels: [] });
    return;
  }
  const loadMs = performance.now() - started;
  const sampler = new RssSampler();
  try {
    for (const key of group.keys) {
      if (group.signal?.aborted) {
        await hooks.onMeasured({ cell: { ...key, state: 'skipped', reason: INTERRUPTED }, outputs: null, labels: [] });
        continue;
      }
      hooks.onStart(key);
      await hooks.onMeasured(await measureCell(key, session, measureContext(group.data, group.prepare, group.settings, sampler, loadMs, group.signal)));
    }
  } finally {
    await sampler.dispose();
    await session.dispose().catch(() => {});
  }
}
