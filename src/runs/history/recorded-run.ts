import { isDiskFull } from '../../core/fs-errors.js';
import { existsSync } from 'node:fs';
import { hostname } from 'node:os';
import { resolve } from 'node:path';
import { describeError } from '../../core/errors.js';
import type { RunConfig, RunHooks } from '../classify-run.js';
import type { GenerateConfig, GenerateHooks } from '../generate-run.js';
import type { TrainConfig, TrainHooks, TrainOptionAudience } from '../train-run.js';
import type { TrainingCell, TrainingRunRecord } from '../../core/training-results.js';
import type { TrainingProgress } from '../../scenarios/train/training-sweep.js';
import type { LoadConfig, LoadHooks, LoadOptionAudience } from '../load-run.js';
import type { LoadCell, LoadRunRecord } from '../../core/load-results.js';
import type { LoadProgress } from '../../scenarios/load/load-sweep.js';
import type { DriverHooks, RunOutcome } from '../../scenarios/run-driver.js';
import type { RunRecordOf } from '../../core/results.js';
import type { GenerationCell, GenerationRunRecord } from '../../core/generation-results.js';
import type { CellResult, RunRecord } from '../../core/results.js';
import type { HistorySource, StoredConfig } from './history-entry.js';
import { HistoryStore } from './history-store.js';
import type { HistoryCell } from './store-schema.js';
import { storedCommand } from '../../scenarios/cell-headline.js';
import { OWNER_TOKEN } from './owner.js';
import { nothingMeasured, type NothingMeasured } from '../../core/nothing-measured.js';

/** How a run is tied into the history. */
export interface RecordOptions {
  /** Defaults to the store of `config.out`. */
  readonly store?: HistoryStore;
  readonly source: HistorySource;
  /** An entry created earlier (a queued dashboard run); otherwise one is created when the run starts. */
  readonly entryId?: number;
  readonly rerunOf?: number | null;
  readonly compareWith?: number | null;
  /** Told when the history cannot be written; the run itself goes on and its files are intact. */
  readonly onWarning?: (message: string) => void;
  /** Told the entry id as soon as it exists. */
  readonly onEntry?: (id: number) => void;
}

/** A finished run and the history entry that records it (null when the store could not be written). */
export interface RecordedOutcome<R = RunRecord> {
  readonly outcome: RunOutcome<R>;
  readonly entryId: number | null;
  /** Set when no cell completed: the entry is recorded `failed` with these reasons, and callers should fail too. */
  readonly nothingMeasured: NothingMeasured | null;
}

/**
 * Writes to the store in order, off the measuring path's critical section,
 * and stops writing after the first failure so a broken store costs one
 * warning rather than one lock timeout per cell.
 */
class HistoryWriter {
  private chain: Promise<void> = Promise.resolve();
  private broken = false;

  constructor(private readonly onWarning: (message: string) => void) {}

  write(work: () => Promise<void>): Promise<void> {
    this.chain = this.chain.then(async () => {
      if (this.broken) return;
      try {
        await work();
      } catch (err) {
        this.broken = true;
        this.onWarning(`benchmark history not updated: ${describeError(err)}`);
      }
    });
    return this.chain;
  }

  flush(): Promise<void> {
    return this.chain;
  }
}

/** A path that exists from here, made absolute; anything else (a name, a missing path) as given. */
function absoluteIfExists(path: string | null): string | null {
  return path !== null && existsSync(path) ? resolve(path) : path;
}

/** The folders a stored config may name: every scenario's has `out` and `dataset`, and `model` (run, generate) or `models` (train, load). */
interface ConfigFolders {
  readonly out: string;
  readonly dataset: string | null;
  readonly model?: string | null;
  readonly models?: readonly string[];
}

/**
 * The config with its folders made absolute, so a re-run from another
 * working directory reads the same model and dataset and writes to the
 * same history. A config with a `model` has that made absolute (a `run`'s
 * `models` are names it resolves itself); one with only `models` has each
 * made absolute. The seed and every other setting are kept, so a load
 * rerun replays the same arrivals. One function for every scenario.
 */
export function replayable<T extends ConfigFolders>(config: T): T {
  const named = config.model !== undefined ? { model: absoluteIfExists(config.model) } : config.models !== undefined ? { models: config.models.map((m) => absoluteIfExists(m) ?? m) } : {};
  return { ...config, out: resolve(config.out), ...named, dataset: absoluteIfExists(config.dataset) };
}

/** Hooks the recorder needs from any scenario's run. */
type RecordableHooks<C, R, P> = DriverHooks<C, R> & { readonly onProgress?: (event: P) => void };

/**
 * `executeRun` plus a history entry: created (or taken from the queue) when
 * the run folder exists, one row per cell as it is measured, and the final
 * state. Every caller that runs a benchmark (CLI `run`, `rerun`, the
 * dashboard) goes through here, so every run is in the history. A run that
 * fails is recorded as `failed` with the message and the error rethrown.
 */
export function executeRecordedRun(input: RunConfig, hooks: RunHooks, opts: RecordOptions): Promise<RecordedOutcome> {
  const config = replayable(input);
  return recordRun(config, config.out, hooks, opts, async (recorded) => (await import('../classify-run.js')).executeRun(config, { ...hooks, ...recorded }));
}

/** `executeGenerate` plus a history entry, as `executeRecordedRun` does for `run`. */
export function executeRecordedGenerate(input: GenerateConfig, hooks: GenerateHooks, opts: RecordOptions): Promise<RecordedOutcome<GenerationRunRecord>> {
  const config = replayable(input);
  return recordRun({ ...config, command: 'generate' }, config.out, hooks, opts, async (recorded) => (await import('../generate-run.js')).executeGenerate(config, { ...hooks, ...recorded }));
}

/** `executeTrain` plus a history entry, as `executeRecordedRun` does for `run`. */
export function executeRecordedTrain(input: TrainConfig, hooks: TrainHooks, opts: RecordOptions, audience: TrainOptionAudience = 'field'): Promise<RecordedOutcome<TrainingRunRecord>> {
  const config = replayable(input);
  return recordRun<TrainingCell, TrainingRunRecord, TrainingProgress>(config, config.out, hooks, opts, async (recorded) => (await import('../train-run.js')).executeTrain(config, { ...hooks, ...recorded }, audience));
}

/** `executeLoad` plus a history entry, as `executeRecordedRun` does for `run`. */
export function executeRecordedLoad(input: LoadConfig, hooks: LoadHooks, opts: RecordOptions, audience: LoadOptionAudience = 'field'): Promise<RecordedOutcome<LoadRunRecord>> {
  const config = replayable(input);
  return recordRun<LoadCell, LoadRunRecord, LoadProgress>(config, config.out, hooks, opts, async (recorded) => (await import('../load-run.js')).executeLoad(config, { ...hooks, ...recorded }, audience));
}

/**
 * Ties any scenario's run into the history store (see `executeRecordedRun`):
 * a registered scenario (scenario-registry.ts) records its runs through here.
 */
export async function recordRun<C extends { readonly state: string }, R extends RunRecordOf<C>, P extends { readonly total: number }>(
  config: StoredConfig,
  out: string,
  hooks: RecordableHooks<C, R, P>,
  opts: RecordOptions,
  execute: (recorded: RecordableHooks<C, R, P>) => Promise<RunOutcome<R>>,
): Promise<RecordedOutcome<R>> {
  const store = opts.store ?? new HistoryStore(out);
  const writer = new HistoryWriter(opts.onWarning ?? (() => {}));
  let entryId: number | null = opts.entryId ?? null;
  let total: number | null = null;
  const recorded: RecordableHooks<C, R, P> = {
    onStart: async (record, dir) => {
      await writer.write(async () => {
        entryId ??= await store.create({ config, source: opts.source, state: 'running', rerunOf: opts.rerunOf ?? null, compareWith: opts.compareWith ?? null });
        opts.onEntry?.(entryId);
        await store.started(entryId, record, dir);
        const others = (await store.list()).filter((e) => e.state === 'running' && e.ownerToken !== OWNER_TOKEN && e.ownerHost === hostname());
        for (const e of others) opts.onWarning?.(`benchmark ${e.id} is running in process ${e.ownerPid} on this machine at the same time; both measurements may be disturbed`);
      });
      await hooks.onStart?.(record, dir);
    },
    onProgress: (event) => {
      if (total === null) {
        total = event.total;
        const sweep = event.total;
        void writer.write(async () => {
          if (entryId !== null) await store.setTotal(entryId, sweep);
        });
      }
      hooks.onProgress?.(event);
    },
    onCell: async (cell, record) => {
      const index = record.cells.length - 1;
      await writer.write(async () => {
        if (entryId !== null) await store.addCell(entryId, index, cell as unknown as HistoryCell, total, storedCommand(config));
      });
      await hooks.onCell?.(cell, record);
    },
  };
  let outcome: RunOutcome<R>;
  try {
    outcome = await execute(recorded);
  } catch (err) {
    await writer.write(async () => {
      if (entryId !== null) await store.finish(entryId, hooks.signal?.aborted || isDiskFull(err) ? 'interrupted' : 'failed', describeError(err));
    });
    throw err;
  }
  const empty = nothingMeasured(outcome.record);
  await writer.write(async () => {
    if (entryId === null) return;
    if (empty) await store.finish(entryId, 'failed', empty.message, outcome.record.finishedAt ?? undefined);
    else await store.finish(entryId, outcome.record.state === 'completed' ? 'completed' : 'interrupted', null, outcome.record.finishedAt ?? undefined);
  });
  await writer.flush();
  return { outcome, entryId, nothingMeasured: empty };
}
