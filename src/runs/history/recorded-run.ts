import { isDiskFull } from '../../core/fs-errors.js';
import { existsSync } from 'node:fs';
import { hostname } from 'node:os';
import { resolve } from 'node:path';
import { describeError, UserError } from '../../core/errors.js';
import type { DriverHooks, RunOutcome } from '../../scenarios/run-driver.js';
import type { EngineRegistry } from '../../core/engine-registry.js';
import type { RunRecordOf } from '../../core/results.js';
import type { RunRecord } from '../../core/results.js';
import type { HistorySource, StoredConfig } from './history-entry.js';
import { HistoryStore } from './history-store.js';
import type { HistoryCell } from './store-schema.js';
import { storedCommand } from '../../scenarios/cell-headline.js';
import { cellProgress, scenarioOfConfig, type CellProgress, type Scenario, type ScenarioConfig, type ScenarioRecord, type ScenarioRunHooks } from '../../scenarios/scenario-registry.js';
import { withBuiltinLaunchers } from '../builtin-launchers.js';
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
  readonly dataset?: string | null;
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
  return { ...config, out: resolve(config.out), ...named, ...(config.dataset !== undefined ? { dataset: absoluteIfExists(config.dataset) } : {}) };
}

/** Hooks the recorder needs from any scenario's run. */
type RecordableHooks<C, R, P> = DriverHooks<C, R> & { readonly onProgress?: (event: P) => void };

/** What a run of a stored config is given: the stop signal, the engines, and where its cells' progress goes. */
export interface StoredRunHooks {
  readonly signal: AbortSignal;
  readonly registry?: EngineRegistry;
  readonly onCell: (event: CellProgress) => void;
}

/**
 * A scenario's run plus a history entry: created (or taken from the queue)
 * when the run folder exists, one row per cell as it is measured, and the
 * final state. Every caller that runs a benchmark (the CLI's commands,
 * `rerun`, the dashboard's queue, the API) goes through here, for every
 * scenario alike, so every run is in the history. A run that fails is
 * recorded as `failed` with the message and the error rethrown. The
 * scenario is given the isolated launcher (told its `childModule`, and the
 * plug-in engine modules its registry was given) and every launcher, since
 * it cannot import one.
 */
export function executeRecorded<R extends ScenarioRecord, C extends ScenarioConfig, P extends { readonly total: number }>(scenario: Scenario<R, C, P>, input: C, hooks: ScenarioRunHooks<R, P>, opts: RecordOptions): Promise<RecordedOutcome<R>> {
  const execute = scenario.execute;
  if (!execute) throw new UserError(`the ${scenario.command} scenario cannot run a stored config in this inferbench`, `load the module that registers ${scenario.command} with a way to run it, or run another scenario`);
  const config = replayable(input as C & ConfigFolders);
  // The stored config names its scenario (a `run`'s names none: older readers expect none).
  const stored = storedCommand(config) === scenario.command ? config : { ...config, command: scenario.command };
  // One recorder for every scenario: its cell and record types are the scenario's own, unknown here.
  type Cell = { readonly state: string };
  const recorded = recordRun<Cell, RunRecordOf<Cell>, P>(stored as unknown as StoredConfig, config.out, hooks as unknown as RecordableHooks<Cell, RunRecordOf<Cell>, P>, opts, (own) =>
    execute(config, withBuiltinLaunchers(scenario, { ...hooks, ...(own as unknown as ScenarioRunHooks<R, P>) })) as unknown as Promise<RunOutcome<RunRecordOf<Cell>>>,
  );
  return recorded as unknown as Promise<RecordedOutcome<R>>;
}

/** A stored config of any registered scenario, run into the history, its cells' progress told as CellProgress (the dashboard's queue, `rerun`). */
export function executeStored(config: ScenarioConfig, hooks: StoredRunHooks, opts: RecordOptions): Promise<RecordedOutcome<ScenarioRecord>> {
  const onProgress = (event: { readonly kind: string; readonly total: number }): void => {
    const cell = cellProgress(event);
    if (cell) hooks.onCell(cell);
  };
  return executeRecorded(scenarioOfConfig(config), config, { signal: hooks.signal, ...(hooks.registry ? { registry: hooks.registry } : {}), onProgress }, opts);
}

/**
 * Ties any scenario's run into the history store (see `executeRecorded`):
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
