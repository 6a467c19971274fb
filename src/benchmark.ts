import type { BenchmarkModel } from './benchmark-model.js';
import { resolveBenchmarkOptions, type BenchmarkOptions, type ResolvedBenchmarkOptions } from './benchmark-options.js';
import type { Engine } from './engine.js';
import { CellSkip, UserError, describeError } from './errors.js';
import type { CellKey, CellResult, CompletedCell } from './results.js';
import type { EngineSession } from './session.js';
import { computeStatistics, throughput } from './statistics.js';
import type { TensorMap } from './tensor.js';
import { resolveColumns, type ResolvedColumns } from '../datasets/columns.js';
import type { Dataset, DataRow } from '../datasets/dataset.js';
import { openDataset } from '../datasets/open-dataset.js';

/** Input preparation for one batch; the model's or the user's callback. */
type Prepare = (rows: readonly DataRow[]) => TensorMap | Promise<TensorMap>;

/** The rows and column mapping every cell of one Benchmark streams. */
interface PreparedData {
  readonly dataset: Dataset;
  readonly columns: ResolvedColumns;
}

const INTERRUPTED = 'not run: the sweep was interrupted (Ctrl-C)';

/**
 * Streams a dataset through a model on engines × batch sizes and measures
 * each cell. One failing cell (out of memory, an unsupported op) is recorded
 * with its reason and the sweep moves on; aborting via `signal` keeps every
 * cell measured so far.
 */
export class Benchmark {
  readonly options: ResolvedBenchmarkOptions;
  private data: Promise<PreparedData> | undefined;

  constructor(options: BenchmarkOptions = {}) {
    this.options = resolveBenchmarkOptions(options);
  }

  /**
   * Measures one session at every batch size. `session` may be a promise
   * (e.g. `model.exportToOnnx('cpu')`) so its load time is measured too.
   * Needs `dataItemProcessCallback` unless `model` is given.
   */
  async execute(
    session: EngineSession | Promise<EngineSession>,
    options: { name: string; model?: BenchmarkModel },
  ): Promise<CellResult[]> {
    const data = await this.prepareData(options.model !== undefined || this.options.dataItemProcessCallback === undefined);
    const prepare = this.prepareFn(options.model, data.columns);
    const threads = this.options.threads.length === 1 ? (this.options.threads[0] ?? null) : null;
    const started = performance.now();
    let loaded: EngineSession;
    try {
      loaded = await session;
    } catch (err) {
      return this.options.batchSizes.map((b) => failedCell(this.key(options.model?.name ?? options.name, options.name, b, threads), err));
    }
    const loadMs = performance.now() - started;
    const cells: CellResult[] = [];
    const total = this.options.batchSizes.length;
    for (const batchSize of this.options.batchSizes) {
      const key = this.key(options.model?.name ?? options.name, options.name, batchSize, threads);
      await this.runCell(key, loaded, loadMs, data.dataset, prepare, cells.length, total, cells);
    }
    return cells;
  }

  /**
   * Sweeps engines × thread counts × batch sizes for one model. Each engine
   * is loaded once per thread count through the model's export method for
   * its family, measured at every batch size, then disposed before the next
   * load.
   */
  async run(model: BenchmarkModel, engines: readonly (string | Engine)[]): Promise<CellResult[]> {
    const data = await this.prepareData(this.options.dataItemProcessCallback === undefined);
    const withInit = model as BenchmarkModel & { init?: () => Promise<unknown> };
    if (typeof withInit.init === 'function') await withInit.init();
    const prepare = this.prepareFn(model, data.columns);
    const total = engines.length * this.options.threads.length * this.options.batchSizes.length;
    const cells: CellResult[] = [];
    const loads = engines.flatMap((engineRef) => this.options.threads.map((threads) => ({ engineRef, threads })));
    for (const { engineRef, threads } of loads) {
      const engineId = typeof engineRef === 'string' ? engineRef : engineRef.id;
      const keys = this.options.batchSizes.map((b) => this.key(model.name, engineId, b, threads));
      if (this.options.signal?.aborted) {
        for (const k of keys) await this.record(cells, { ...k, state: 'skipped', reason: INTERRUPTED }, total);
        continue;
      }
      const started = performance.now();
      let session: EngineSession;
      try {
        session = await this.exportFor(model, engineRef, threads);
      } catch (err) {
        for (const k of keys) await this.record(cells, failedCell(k, err), total);
        continue;
      }
      const loadMs = performance.now() - started;
      try {
        for (const key of keys) {
          if (this.options.signal?.aborted) {
            await this.record(cells, { ...key, state: 'skipped', reason: INTERRUPTED }, total);
            continue;
          }
          await this.runCell(key, session, loadMs, data.dataset, prepare, cells.length, total, cells);
        }
      } finally {
        await session.dispose().catch(() => {});
      }
    }
    return cells;
  }

  /** Loads `model` on one engine through the export method of the engine's family. */
  private async exportFor(model: BenchmarkModel, engineRef: string | Engine, threads: number | null): Promise<EngineSession> {
    const engine = typeof engineRef === 'string' ? await this.options.registry.require(engineRef) : engineRef;
    const opts = { threads, engine, registry: this.options.registry };
    return engine.target.family === 'onnx' ? model.exportToOnnx(engine.target.device, opts) : model.exportToTfjs(engine.target.backend, opts);
  }

  private key(model: string, engine: string, batchSize: number, threads: number | null): CellKey {
    return { model, engine, batchSize, requestedThreads: threads };
  }

  private async record(cells: CellResult[], cell: CellResult, total: number): Promise<CellResult> {
    cells.push(cell);
    this.options.onProgress({ kind: 'cell-done', index: cells.length - 1, total, cell });
    await this.options.onCell(cell, cells);
    return cell;
  }

  /** Opens the dataset and applies the dataset callback once; every cell then re-streams the same rows. */
  private prepareData(needTextColumn: boolean): Promise<PreparedData> {
    this.data ??= (async () => {
      const source = this.options.dataset;
      let dataset = typeof source === 'object' ? source : await openDataset(source);
      if (this.options.datasetProcessCallback) dataset = await this.options.datasetProcessCallback(dataset);
      if (this.options.limit !== null) dataset = dataset.take(this.options.limit);
      const columnNames = await dataset.columns();
      const columns = needTextColumn
        ? resolveColumns(columnNames, { text: this.options.textColumn, label: this.options.labelColumn })
        : { text: this.options.textColumn ?? columnNames[0] ?? 'text', label: this.options.labelColumn ?? null };
      for await (const _row of dataset.take(1)) return { dataset, columns };
      throw new UserError(`dataset ${dataset.name} has no rows after the dataset callback`, 'check the filter in datasetProcessCallback, or use a dataset with rows');
    })();
    return this.data;
  }

  private prepareFn(model: BenchmarkModel | undefined, columns: ResolvedColumns): Prepare {
    const custom = this.options.dataItemProcessCallback;
    if (custom) return (rows) => custom(rows, columns);
    if (model) return (rows) => model.prepareBatch(rows, columns);
    throw new UserError('Benchmark.execute() has no way to build model inputs', 'pass dataItemProcessCallback to new Benchmark(), or { model } to execute()');
  }

  /** Warmup on the first batch, then one measured pass over every batch of the stream. */
  private async runCell(
    key: CellKey,
    session: EngineSession,
    loadMs: number,
    dataset: Dataset,
    prepare: Prepare,
    index: number,
    total: number,
    cells: CellResult[],
  ): Promise<CellResult> {
    this.options.onProgress({ kind: 'cell-start', index, total, engine: key.engine, batchSize: key.batchSize });
    const runMs: number[] = [];
    const prepareMs: number[] = [];
    const items: number[] = [];
    const forwardMs: number[] = [];
    let peakRss = process.memoryUsage.rss();
    let warmedUp = false;
    try {
      for await (const rows of dataset.batches(key.batchSize)) {
        if (!warmedUp) {
          const inputs = await prepare(rows);
          for (let i = 0; i < this.options.warmupBatches; i++) await session.run(inputs);
          warmedUp = true;
        }
        if (this.options.signal?.aborted) {
          return await this.record(cells, { ...key, state: 'errored', reason: `interrupted (Ctrl-C) after ${runMs.length} measured batches`, session: session.describe() }, total);
        }
        const t0 = performance.now();
        const inputs = await prepare(rows);
        const t1 = performance.now();
        await session.run(inputs);
        const t2 = performance.now();
        const forward = session.innerForwardMs?.();
        if (typeof forward === 'number') forwardMs.push(forward);
        prepareMs.push(t1 - t0);
        runMs.push(t2 - t1);
        items.push(rows.length);
        const rss = process.memoryUsage.rss();
        if (rss > peakRss) peakRss = rss;
      }
    } catch (err) {
      return this.record(cells, { ...failedCell(key, err), ...(err instanceof CellSkip ? {} : { session: session.describe() }) }, total);
    }
    const itemsTotal = items.reduce((a, b) => a + b, 0);
    const latency = computeStatistics(runMs);
    const cell: CompletedCell = {
      ...key,
      state: 'completed',
      session: session.describe(),
      loadMs,
      warmupBatches: this.options.warmupBatches,
      samples: { runMs, prepareMs, items, ...(forwardMs.length === runMs.length && runMs.length > 0 ? { forwardMs } : {}) },
      latency,
      prepare: computeStatistics(prepareMs),
      ...(forwardMs.length === runMs.length && runMs.length > 0 ? { forward: computeStatistics(forwardMs) } : {}),
      totalMs: latency.total,
      itemsTotal,
      samplesPerSecond: throughput(itemsTotal, latency.total),
      peakRssBytes: peakRss,
    };
    return this.record(cells, cell, total);
  }
}

/** A cell that could not run: skipped when the engine cannot serve it, errored otherwise. */
function failedCell(key: CellKey, err: unknown): CellResult {
  if (err instanceof CellSkip) return { ...key, state: 'skipped', reason: err.message };
  return { ...key, state: 'errored', reason: describeError(err) };
}
