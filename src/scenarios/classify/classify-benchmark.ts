import type { BenchmarkModel } from '../../models/benchmark-model.js';
import { resolveBenchmarkOptions, type BenchmarkOptions, type ResolvedBenchmarkOptions } from './benchmark-options.js';
import type { Engine } from '../../core/engine.js';
import { UserError } from '../../core/errors.js';
import { failedRound, measureRound, type MeasuredRound, type Prepare } from './measure-cell.js';
import type { RowOutputs } from '../../core/parity.js';
import type { CellKey, CellResult } from '../../core/results.js';
import { RssSampler } from '../rss-sampler.js';
import type { EngineSession } from '../../core/engine-session.js';
import { perRoundRule } from '../../core/stop-rule.js';
import { readHostNoise } from '../../core/host-noise.js';
import { measureContext, prepareData, prepareFn, referenceSource, type ChildSource, type IsolatedJob, type OpenGroup, type MeasureSettings, type PreparedData } from './open-group.js';
import { batchSizeSkip } from './batch-size-check.js';
import type { Launch, LaunchHooks, Launchers, PageLaunch } from '../../core/launch-jobs.js';
import type { ModelSpec } from '../../models/model-spec.js';
import { CellRounds } from './cell-rounds.js';
import { rotated } from '../../core/round-order.js';
import { ParityReference, type ReferenceOutputs } from './parity-reference.js';

export type { GroupHooks } from './open-group.js';

const keyId = (key: CellKey): string => String(key.batchSize);

/**
 * The classify job of one open group as every launcher takes it: its kind,
 * its payload (the group itself in this process or beside a page; in a
 * child, the plain data it rebuilds the group from), and how its keys and
 * results are told apart.
 */
export function classifyLaunch(payload: OpenGroup | IsolatedJob): Launch<CellKey, MeasuredRound> {
  return {
    kind: 'classify',
    payload,
    keys: payload.keys,
    keyId,
    resultId: (measured) => keyId(measured.key),
    failed: (key, reason) => ({ kind: 'failed', key, cell: { ...key, state: 'errored', reason } }),
    skipped: (key, reason) => ({ kind: 'failed', key, cell: { ...key, state: 'skipped', reason } }),
  };
}

/** The classify job of one open group beside a page of the browser of its engine (the browser launcher). */
export function classifyPageLaunch(group: OpenGroup): PageLaunch<CellKey, MeasuredRound> {
  return { ...classifyLaunch(group), engine: group.engine, registry: group.registry, threads: group.threads };
}

/** Runs one open group through a launcher, relaying its rounds to `hooks`. */
type GroupRun = (group: OpenGroup, hooks: LaunchHooks<CellKey, MeasuredRound>) => Promise<void>;

/** One engine at one thread count: opened afresh for every round. */
interface Open {
  readonly engineRef: string | Engine;
  readonly engineId: string;
  readonly threads: number | null;
  readonly keys: readonly CellKey[];
}

/**
 * Streams a dataset through a model on engines × thread counts × batch
 * sizes and measures each cell in several independent rounds. One failing
 * cell (out of memory, an unsupported op) is recorded with its reason and
 * the sweep moves on; aborting via `signal` keeps every round measured so
 * far. Every completed cell is compared with the reference engine's outputs
 * on the same rows.
 */
export class ClassifyBenchmark {
  readonly options: ResolvedBenchmarkOptions;
  private data: Promise<PreparedData> | undefined;

  /**
   * `launchers` are where each open group runs (this process, a child
   * process, a browser page): given by the caller, since launchers sit above
   * scenarios (src/runs/benchmark.ts's `Benchmark` gives the built-in ones).
   */
  constructor(
    options: BenchmarkOptions,
    private readonly launchers: Launchers,
  ) {
    this.options = resolveBenchmarkOptions(options);
  }

  /**
   * Measures one session at every batch size. `session` may be a promise
   * (e.g. `openOn(engine, model)`) so its open time is measured too.
   * Rounds here reuse the one given session (it cannot be reloaded), with
   * batch sizes interleaved. Needs `dataItemProcessCallback` unless `model` is given.
   */
  async execute(session: EngineSession | Promise<EngineSession>, options: { name: string; model?: BenchmarkModel }): Promise<CellResult[]> {
    const data = await this.prepareData(options.model !== undefined || this.options.dataItemProcessCallback === undefined);
    const prepare = this.prepareFn(options.model, data.columns);
    const threads = this.options.threads.length === 1 ? (this.options.threads[0] ?? null) : null;
    const modelName = options.model?.name ?? options.name;
    const keys = this.options.batchSizes.map((b) => this.key(modelName, options.name, b, threads));
    const rowSet = await data.rowSet();
    const book = this.book(keys, rowSet.rows);
    const cells: CellResult[] = [];
    const total = keys.length;
    const started = performance.now();
    let opened: EngineSession;
    try {
      opened = await session;
    } catch (err) {
      for (const k of keys) book.add(failedRound(k, err));
      for (const { cell } of book.takeReady(false)) await this.record(cells, cell, total);
      return cells;
    }
    const openMs = performance.now() - started;
    const sampler = new RssSampler();
    const noiseBase = readHostNoise(null).cpu;
    const phases = opened.openPhases?.() ?? null;
    // One session serves every round here, so only the very first batch size measured finds it cold.
    const measuredBefore: number[] = [];
    try {
      for (let round = 0; round < this.options.rounds && !this.options.signal?.aborted; round++) {
        for (const key of rotated(keys, round)) {
          if (!book.wants(key, round) || this.options.signal?.aborted) continue;
          this.options.onProgress({ kind: 'cell-start', index: cells.length, total, engine: key.engine, batchSize: key.batchSize, round, rounds: this.options.rounds });
          const run = { sampler, openMs, signal: this.options.signal, round, noiseBase, measuredBefore: [...measuredBefore], phases, isolation: 'in-process' as const, rowSet };
          this.roundDone(book, await measureRound(key, opened, measureContext(data, prepare, this.settings(data), run)), round, cells.length, total);
          measuredBefore.push(key.batchSize);
        }
      }
      const parity = new ParityReference(null, this.options.parity.tolerance);
      for (const { key, cell } of book.takeReady(this.options.signal?.aborted === true)) {
        const first = book.firstOutputs(key);
        await this.record(cells, parity.withParity(cell, 'outputs' in first ? first : null, 'self'), total);
      }
    } finally {
      await sampler.dispose();
    }
    return cells;
  }

  /**
   * Sweeps engines × thread counts × batch sizes for one model, in rounds:
   * each round opens every engine afresh (a fresh process when isolating)
   * and measures every batch size on it, with the order of opens rotated by
   * the round so drift over the sweep hits every engine alike. A cell is
   * recorded once all its rounds are done. The parity reference engine runs
   * first in the first round, whose warm passes give the outputs compared;
   * when it is not in the sweep, an untimed pass on it provides them.
   */
  async run(model: BenchmarkModel, engines: readonly (string | Engine)[]): Promise<CellResult[]> {
    const data = await this.prepareData(this.options.dataItemProcessCallback === undefined);
    const withInit = model as BenchmarkModel & { init?: () => Promise<unknown> };
    if (typeof withInit.init === 'function') await withInit.init();
    const prepare = this.prepareFn(model, data.columns);
    const reference = this.options.parity.reference;
    const idOf = (e: string | Engine) => (typeof e === 'string' ? e : e.id);
    const ordered = [...engines].sort((a, b) => Number(idOf(b) === reference) - Number(idOf(a) === reference));
    const opens: Open[] = ordered.flatMap((engineRef) =>
      this.options.threads.map((threads) => ({ engineRef, engineId: idOf(engineRef), threads, keys: this.options.batchSizes.map((b) => this.key(model.name, idOf(engineRef), b, threads)) })),
    );
    const allKeys = opens.flatMap((l) => l.keys);
    const total = allKeys.length;
    const book = this.book(allKeys, (await data.rowSet()).rows);
    const cells: CellResult[] = [];
    const sampler = new RssSampler();
    const settings = this.settings(data);
    const source = reference === null ? null : referenceSource(model, reference, data, prepare, settings, { registry: this.options.registry, sampler, signal: this.options.signal });
    const parity = new ParityReference(reference, this.options.parity.tolerance, source);
    const inNode = this.nodeLaunch(model);
    const inBrowser = this.launchers.page();
    const flush = async (aborted: boolean) => {
      for (const { key, cell } of book.takeReady(aborted)) {
        const own = this.ownOutputs(book, key);
        const checked = await parity.check(cell, own, this.referenceOutputs(book, opens, key, reference));
        this.keepOutputs(checked, own, reference);
        await this.record(cells, checked, total);
      }
    };
    try {
      for (let round = 0; round < this.options.rounds; round++) {
        for (const open of rotated(opens, round)) {
          if (this.options.signal?.aborted) break;
          const keys = open.keys.filter((k) => book.wants(k, round));
          if (keys.length === 0) continue;
          const group: OpenGroup = { model, engine: open.engineRef, threads: open.threads, keys, data, prepare, settings, registry: this.options.registry, signal: this.options.signal, round };
          const hooks: LaunchHooks<CellKey, MeasuredRound> = {
            onStart: (key) => this.options.onProgress({ kind: 'cell-start', index: cells.length, total, engine: key.engine, batchSize: key.batchSize, round, rounds: this.options.rounds }),
            onResult: async (measured) => this.roundDone(book, measured, round, cells.length, total),
          };
          if (await this.runsInBrowser(open.engineRef)) {
            await inBrowser.run(classifyPageLaunch(group), hooks, group.signal);
          } else {
            await inNode(group, hooks);
          }
          await flush(false);
        }
      }
      await flush(this.options.signal?.aborted === true);
    } finally {
      await inBrowser.close();
      await parity.dispose();
      await sampler.dispose();
    }
    return cells;
  }

  /** A fresh book of rounds with oversized batch sizes already skipped. */
  private book(keys: readonly CellKey[], rows: number): CellRounds {
    const book = new CellRounds(keys, this.options.rounds, { rule: this.options.stop, maxCv: this.options.maxCv, rows });
    for (const key of keys) {
      const skip = batchSizeSkip(key, rows);
      if (skip) book.fail(key, skip);
    }
    return book;
  }

  /** Files one round and reports it as progress. */
  private roundDone(book: CellRounds, measured: MeasuredRound, round: number, index: number, total: number): void {
    book.add(measured);
    const r = measured.kind === 'measured' ? measured.figures.round : null;
    this.options.onProgress({
      kind: 'round-done',
      index,
      total,
      model: measured.key.model,
      engine: measured.key.engine,
      batchSize: measured.key.batchSize,
      requestedThreads: measured.key.requestedThreads,
      round,
      rounds: this.options.rounds,
      meanMs: r?.meanMs ?? null,
      batches: r?.runMs.length ?? 0,
      passes: r?.passes ?? 0,
      totalMs: r ? r.runMs.reduce((a, b) => a + b, 0) : 0,
    });
  }

  /** Hands `onOutputs` (--save-outputs) the reference engine's outputs and those of a cell that failed parity. */
  private keepOutputs(cell: CellResult, own: { readonly outputs: RowOutputs } | null, reference: string | null): void {
    const keep = this.options.onOutputs;
    if (!keep || !own || cell.state !== 'completed') return;
    const key: CellKey = { model: cell.model, engine: cell.engine, batchSize: cell.batchSize, requestedThreads: cell.requestedThreads };
    if (cell.engine === reference) keep(key, 'reference', own.outputs);
    else if (cell.parity?.withinTolerance === false) keep(key, 'parity failed', own.outputs);
  }

  /** A cell's warm-pass outputs kept for parity, or null when it kept none. */
  private ownOutputs(book: CellRounds, key: CellKey): { readonly outputs: RowOutputs } | null {
    const first = book.firstOutputs(key);
    return 'outputs' in first ? first : null;
  }

  /** The reference engine's own outputs at `key`'s batch size when it is in the sweep (or why it has none); null when it is not in the sweep. */
  private referenceOutputs(book: CellRounds, opens: readonly Open[], key: CellKey, reference: string | null): ReferenceOutputs | null {
    const refKey = opens.find((l) => l.engineId === reference)?.keys.find((k) => k.batchSize === key.batchSize);
    return refKey ? book.firstOutputs(refKey) : null;
  }

  /** True for engines that declare they run in a browser page: their groups go to the browser launcher whatever `isolate` says (Chromium is its own process). */
  private async runsInBrowser(engineRef: string | Engine): Promise<boolean> {
    if (typeof engineRef !== 'string') return engineRef.runsIn === 'browser';
    const status = await this.options.registry.status(engineRef);
    return status.engine?.runsIn === 'browser';
  }

  /**
   * How this sweep's Node engines run an open group: a fresh child process
   * per open group and round when isolating (the payload is the plain data
   * the child rebuilds the group from), this process otherwise.
   */
  private nodeLaunch(model: BenchmarkModel): GroupRun {
    const o = this.options;
    if (!o.isolate) {
      const launch = this.launchers.inProcess();
      return (group, hooks) => launch(classifyLaunch(group), hooks, group.signal);
    }
    const source: ChildSource = {
      model: this.isolationSpec(model),
      dataset: typeof o.dataset === 'string' ? o.dataset : null,
      textColumn: o.textColumn ?? null,
      labelColumn: o.labelColumn ?? null,
      limit: o.limit,
      skipRows: o.skipRows,
    };
    const launch = this.launchers.isolated(o.engineModules);
    return (group, hooks) => {
      const job: IsolatedJob = {
        ...source,
        engine: typeof group.engine === 'string' ? group.engine : group.engine.id,
        threads: group.threads,
        keys: group.keys,
        stop: group.settings.stop,
        warmupBatches: group.settings.warmupBatches,
        parityRows: group.settings.parityRows,
        ...(group.settings.profileRound != null ? { profileRound: group.settings.profileRound } : {}),
        round: group.round,
      };
      return launch(classifyLaunch(job), hooks, group.signal);
    };
  }

  /** How every round of every cell of this sweep is measured: the round's share of the stop rule. */
  private settings(data: PreparedData): MeasureSettings {
    const o = this.options;
    return {
      stop: perRoundRule(o.stop, o.rounds),
      warmupBatches: o.warmupBatches,
      parityRows: o.parity.reference === null && data.columns.label === null ? 0 : o.parity.rows,
      ...(o.profile ? { profileRound: o.rounds - 1 } : {}),
    };
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
