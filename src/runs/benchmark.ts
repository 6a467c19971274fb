import type { BenchmarkModel } from '../models/benchmark-model.js';
import { resolveBenchmarkOptions, type BenchmarkOptions, type ResolvedBenchmarkOptions } from './benchmark-options.js';
import type { Engine } from '../core/engine.js';
import { UserError } from '../core/errors.js';
import { failedCell, measureCell, type MeasuredCell, type Prepare } from '../scenarios/classify/measure-cell.js';
import { accuracyAgainstLabels, compareOutputs, type RowOutputs } from '../core/parity.js';
import type { CellKey, CellResult } from '../core/results.js';
import { RssSampler } from '../scenarios/rss-sampler.js';
import type { EngineSession } from '../core/engine-session.js';
import {
  INTERRUPTED,
  exportFor,
  measureContext,
  prepareData,
  prepareFn,

  type MeasureSettings,
  type PreparedData,
} from '../scenarios/classify/load-group.js';
import { inProcessLauncher, type GroupLauncher } from '../launchers/launcher.js';
import { childProcessLauncher } from '../launchers/child-runner.js';
import type { ModelSpec } from '../models/model-spec.js';

export type { GroupHooks } from '../scenarios/classify/load-group.js';

/**
 * Streams a dataset through a model on engines × thread counts × batch
 * sizes and measures each cell. One failing cell (out of memory, an
 * unsupported op) is recorded with its reason and the sweep moves on;
 * aborting via `signal` keeps every cell measured so far. Every completed
 * cell is compared with the reference engine's outputs on the same rows.
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
    const modelName = options.model?.name ?? options.name;
    const started = performance.now();
    let loaded: EngineSession;
    try {
      loaded = await session;
    } catch (err) {
      return this.options.batchSizes.map((b) => failedCell(this.key(modelName, options.name, b, threads), err));
    }
    const loadMs = performance.now() - started;
    const cells: CellResult[] = [];
    const total = this.options.batchSizes.length;
    const sampler = new RssSampler();
    try {
      for (const batchSize of this.options.batchSizes) {
        const key = this.key(modelName, options.name, batchSize, threads);
        this.options.onProgress({ kind: 'cell-start', index: cells.length, total, engine: key.engine, batchSize });
        const measured = await measureCell(key, loaded, this.context(data, prepare, sampler, loadMs));
        await this.record(cells, this.withQuality(measured, null, null), total);
      }
    } finally {
      await sampler.dispose();
    }
    return cells;
  }

  /**
   * Sweeps engines × thread counts × batch sizes for one model. Each engine
   * is loaded once per thread count through the model's export method for
   * its family, measured at every batch size, then disposed before the next
   * load. The parity reference engine runs first so later cells can be
   * compared with it; when it is not in the sweep, an untimed pass on it
   * provides the reference outputs.
   */
  async run(model: BenchmarkModel, engines: readonly (string | Engine)[]): Promise<CellResult[]> {
    const data = await this.prepareData(this.options.dataItemProcessCallback === undefined);
    const withInit = model as BenchmarkModel & { init?: () => Promise<unknown> };
    if (typeof withInit.init === 'function') await withInit.init();
    const prepare = this.prepareFn(model, data.columns);
    const reference = this.options.parity.reference;
    const idOf = (e: string | Engine) => (typeof e === 'string' ? e : e.id);
    const ordered = [...engines].sort((a, b) => Number(idOf(b) === reference) - Number(idOf(a) === reference));
    const total = engines.length * this.options.threads.length * this.options.batchSizes.length;
    const cells: CellResult[] = [];
    const referenceOutputs = new Map<number, RowOutputs | null>();
    const sampler = new RssSampler();
    const launcher = this.launcher(model);
    try {
      const loads = ordered.flatMap((engineRef) => this.options.threads.map((threads) => ({ engineRef, threads })));
      for (const { engineRef, threads } of loads) {
        const engineId = idOf(engineRef);
        const keys = this.options.batchSizes.map((b) => this.key(model.name, engineId, b, threads));
        if (this.options.signal?.aborted) {
          for (const k of keys) await this.record(cells, { ...k, state: 'skipped', reason: INTERRUPTED }, total);
          continue;
        }
        await launcher.run({ model, engine: engineRef, threads, keys, data, prepare, settings: this.settings(data), registry: this.options.registry, signal: this.options.signal }, {
          onStart: (key) => this.options.onProgress({ kind: 'cell-start', index: cells.length, total, engine: key.engine, batchSize: key.batchSize }),
          onMeasured: async (measured) => {
            const batchSize = measured.cell.batchSize;
            if (engineId === reference && measured.outputs && !referenceOutputs.has(batchSize)) referenceOutputs.set(batchSize, measured.outputs);
            const ref = engineId === reference || measured.cell.state !== 'completed' ? null : await this.referenceFor(batchSize, model, data, prepare, sampler, referenceOutputs);
            await this.record(cells, this.withQuality(measured, ref, reference), total);
          },
        });
      }
    } finally {
      await this.referenceSession?.then((s) => s?.dispose()).catch(() => {});
      this.referenceSession = undefined;
      await sampler.dispose();
    }
    return cells;
  }

  /** The launcher of this sweep: a fresh child process per load group when isolating, this process otherwise. */
  private launcher(model: BenchmarkModel): GroupLauncher {
    if (!this.options.isolate) return inProcessLauncher;
    const o = this.options;
    return childProcessLauncher({
      model: this.isolationSpec(model),
      dataset: typeof o.dataset === 'string' ? o.dataset : null,
      textColumn: o.textColumn ?? null,
      labelColumn: o.labelColumn ?? null,
      limit: o.limit,
      engineModules: o.engineModules,
    });
  }

  /** How every cell of this sweep is measured. */
  private settings(data: PreparedData): MeasureSettings {
    const o = this.options;
    return { stop: o.stop, warmup: o.warmup, maxCv: o.maxCv, parityRows: o.parity.reference === null && data.columns.label === null ? 0 : o.parity.rows };
  }

  /**
   * How a child process re-creates the model. Conflicting options fail here
   * with the fix: functions (callbacks, Dataset objects) cannot be sent.
   */
  private isolationSpec(model: BenchmarkModel): ModelSpec {
    const o = this.options;
    const fix = 'pass isolate: false (CLI: --no-isolate) to run in this process, or give the child what it can rebuild: a dataset path and a model spec';
    if (o.datasetProcessCallback || o.dataItemProcessCallback) {
      throw new UserError('isolate: true cannot send datasetProcessCallback or dataItemProcessCallback to a child process (functions cannot be serialised)', fix);
    }
    if (o.dataset !== undefined && typeof o.dataset !== 'string') {
      throw new UserError('isolate: true needs the dataset as a path or id, not a Dataset object (it cannot be serialised)', fix);
    }
    const spec = o.modelSpec ?? (model as BenchmarkModel & { isolationSpec?: () => ModelSpec | null }).isolationSpec?.() ?? null;
    if (!spec) {
      throw new UserError(`model "${model.name}" cannot be re-created in a child process`, `pass modelSpec: { kind: 'module', path, exportName } naming the module that exports it, or ${fix.slice(5)}`);
    }
    return spec;
  }

  private referenceSession: Promise<EngineSession | null> | undefined;

  /** Reference outputs at a batch size, from the reference cell or an untimed pass on the reference engine. */
  private async referenceFor(
    batchSize: number,
    model: BenchmarkModel,
    data: PreparedData,
    prepare: Prepare,
    sampler: RssSampler,
    cache: Map<number, RowOutputs | null>,
  ): Promise<RowOutputs | null> {
    const reference = this.options.parity.reference;
    if (reference === null) return null;
    if (cache.has(batchSize)) return cache.get(batchSize) ?? null;
    this.referenceSession ??= this.exportFor(model, reference, null).catch(() => null);
    const session = await this.referenceSession;
    let outputs: RowOutputs | null = null;
    if (session) {
      const key = this.key(model.name, reference, batchSize, null);
      const quickPass = { ...this.context(data, prepare, sampler, 0), stop: { minTimeMs: 0, minBatches: 1, maxTimeMs: Infinity, maxBatches: Infinity }, warmup: { ...this.options.warmup, minBatches: 1, maxBatches: 1 } };
      outputs = (await measureCell(key, session, quickPass)).outputs;
    }
    cache.set(batchSize, outputs);
    return outputs;
  }

  /** Adds parity with the reference and accuracy against labels to a completed cell. */
  private withQuality(measured: MeasuredCell, reference: RowOutputs | null, referenceId: string | null): CellResult {
    const { cell, outputs, labels } = measured;
    if (cell.state !== 'completed' || !outputs) return cell;
    const parity = reference && referenceId ? compareOutputs(reference, outputs, referenceId, this.options.parity.tolerance) : null;
    const accuracy = labels.length > 0 ? accuracyAgainstLabels(outputs, labels) : null;
    return { ...cell, parity, accuracy };
  }

  private context(data: PreparedData, prepare: Prepare, sampler: RssSampler, loadMs: number) {
    return measureContext(data, prepare, this.settings(data), sampler, loadMs, this.options.signal);
  }

  private exportFor(model: BenchmarkModel, engineRef: string | Engine, threads: number | null): Promise<EngineSession> {
    return exportFor(model, engineRef, threads, this.options.registry);
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
    this.data ??= prepareData(this.options, needTextColumn);
    return this.data;
  }

  private prepareFn(model: BenchmarkModel | undefined, columns: PreparedData['columns']): Prepare {
    return prepareFn(model, columns, this.options.dataItemProcessCallback);
  }
}
