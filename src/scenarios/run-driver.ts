/**
 * The one run driver every scenario goes through (`inferbench run`,
 * `inferbench generate`, `inferbench train`): choose the engines, create the run
 * id and folder, record the environment, save the record after every cell,
 * keep what was measured on Ctrl-C or a failure, and write the final files.
 * A scenario brings only its sweep and its writer.
 */
import { unavailableText, type EngineRegistry } from '../core/engine-registry.js';
import { collectEnvironment } from '../core/environment.js';
import { describeError, UserError } from '../core/errors.js';
import { FolderRefused, makeFolders } from '../core/folders.js';
import { isDiskFull } from '../core/fs-errors.js';
import { setStopCause } from '../core/stop-cause.js';
import { saveAfterDiskFull } from './disk-full-save.js';
import type { EnvironmentInfo, ModelInfo, RunRecord, RunRecordOf } from '../core/results.js';
import { randomBytes } from 'node:crypto';
import { resolve } from 'node:path';

/** What a finished (or interrupted) run produced, for either kind of run record. */
export interface RunOutcome<R = RunRecord> {
  readonly record: R;
  readonly dir: string;
  readonly paths: readonly string[];
  /** Non-fatal problems, e.g. a chart that could not be rendered. */
  readonly warnings: readonly string[];
}

/** Callbacks of a run in progress, for a CLI, a web page or a history store. */
export interface DriverHooks<C, R> {
  readonly signal?: AbortSignal;
  /** Called once the run folder exists and before the first cell. */
  readonly onStart?: (record: R, dir: string) => void | Promise<void>;
  /** Called after each cell with the record so far (already saved to disk). */
  readonly onCell?: (cell: C, record: R) => void | Promise<void>;
}

/** Writes a record's files; `png: false` writes the data files only (used after every cell). */
export type RecordWriter<R> = (record: R, dir: string, options: { png: boolean }) => Promise<{ paths: string[]; warnings: string[] }>;

/** One scenario's part of a run. */
export interface ScenarioRun<C, R extends RunRecordOf<C>> {
  /** The scenario's record kind (`generate`, `train`, `load`); absent for classification (older readers expect no kind). */
  readonly kind?: string;
  readonly out: string;
  readonly png: boolean;
  readonly registry: EngineRegistry;
  /** Engines asked for by name (kept even when unavailable: they become skipped cells), or null for every available one. */
  readonly engines: readonly string[] | null;
  /** The config as results.json records it, given the engines chosen. */
  readonly recordedConfig: (engines: readonly string[], unavailable: readonly { id: string; reason: string }[]) => Readonly<Record<string, unknown>>;
  readonly models: readonly ModelInfo[];
  /** Measures every cell, handing each to `record` as soon as it is done. */
  readonly sweep: (engines: readonly string[], record: (cell: C) => Promise<void>) => Promise<void>;
  readonly write: RecordWriter<R>;
}

/** Runs one scenario end to end; see the module comment. */
export async function driveRun<C, R extends RunRecordOf<C>>(scenario: ScenarioRun<C, R>, hooks: DriverHooks<C, R> = {}): Promise<RunOutcome<R>> {
  const { registry } = scenario;
  const { runnable, unavailable } = await registry.selectRunnable(scenario.engines ?? (await defaultEngineIds(registry)));
  const engines = scenario.engines ?? runnable;
  const id = newRunId();
  const dir = await createRunDir(scenario.out, id);
  const config = scenario.recordedConfig(
    engines,
    unavailable.map((s) => ({ id: s.id, reason: unavailableText(s) })),
  );
  const session = new RunSession<C>(id, dir, config, collectEnvironment(), scenario.models, scenario.kind);
  const snapshot = () => session.snapshot() as unknown as R;
  /** The save of a run that stops on an error: `interrupted`, and `interrupted (disk full)` where the disk filled up. */
  const stopSaving = async (err: unknown): Promise<void> => {
    const full = isDiskFull(err);
    if (full) setStopCause('disk full');
    session.finish('interrupted', full ? 'disk full' : undefined);
    if (full) await saveAfterDiskFull(dir, () => scenario.write(snapshot(), dir, { png: false }));
    else await scenario.write(snapshot(), dir, { png: false }).catch(() => {});
  };
  await hooks.onStart?.(snapshot(), dir);
  try {
    await scenario.sweep(engines, async (cell) => {
      session.cells.push(cell);
      const record = snapshot();
      try {
        await scenario.write(record, dir, { png: false });
      } catch (err) {
        // A full disk ends the run, but the cell was measured: the history gets it as results.json will (saveAfterDiskFull).
        if (isDiskFull(err)) await hooks.onCell?.(cell, record);
        throw err;
      }
      await hooks.onCell?.(cell, record);
    });
  } catch (err) {
    await stopSaving(err);
    throw err;
  }
  session.finish(hooks.signal?.aborted ? 'interrupted' : 'completed');
  const record = snapshot();
  try {
    const { paths, warnings } = await scenario.write(record, dir, { png: scenario.png });
    return { record, dir, paths, warnings };
  } catch (err) {
    if (isDiskFull(err)) {
      await stopSaving(err);
      throw err;
    }
    if (!scenario.png) throw err;
    const { paths, warnings } = await scenario.write(record, dir, { png: false });
    return { record, dir, paths, warnings: [`charts not written: ${describeError(err)}`, ...warnings] };
  }
}

/**
 * A run id that sorts by time and cannot collide between two runs started in
 * the same second: `2026-11-22T13-45-01Z-3fa9c2`.
 */
export function newRunId(now: Date = new Date()): string {
  const stamp = now.toISOString().replace(/\.\d+Z$/, 'Z').replace(/:/g, '-');
  return `${stamp}-${randomBytes(3).toString('hex')}`;
}

/** Creates `<out>/<id>/`, turning permission and disk errors into a message about `--out`. */
export async function createRunDir(out: string, id: string): Promise<string> {
  const dir = resolve(out, id);
  try {
    await makeFolders(dir);
  } catch (err) {
    const why = err instanceof FolderRefused ? err.reason : (err as Error).message;
    throw new UserError(`cannot create the output folder ${dir}: ${why}`, 'pass --out a writable folder with free space');
  }
  return dir;
}

/**
 * The record of a run being built cell by cell. `snapshot()` gives a
 * complete RunRecord at any moment, so partial results can be written after
 * every cell and after an interruption.
 */
export class RunSession<C> {
  readonly cells: C[] = [];
  private state: RunRecordOf<C>['state'] = 'running';
  private finishedAt: string | null = null;
  readonly startedAt = new Date().toISOString();

  constructor(
    readonly id: string,
    readonly dir: string,
    readonly config: Readonly<Record<string, unknown>>,
    readonly environment: EnvironmentInfo,
    readonly models: readonly ModelInfo[],
    /** The scenario's record kind (`generate`, `train`, `load`); classification records carry no kind. */
    readonly kind?: string,
  ) {}

  private stoppedBy: string | null = null;

  finish(state: 'completed' | 'interrupted', stoppedBy?: string): void {
    this.state = state;
    if (stoppedBy !== undefined) this.stoppedBy = stoppedBy;
    this.finishedAt = new Date().toISOString();
  }

  snapshot(): RunRecordOf<C> & { readonly kind?: string } {
    return {
      schemaVersion: 1,
      ...(this.kind ? { kind: this.kind } : {}),
      id: this.id,
      state: this.state,
      ...(this.stoppedBy !== null ? { stoppedBy: this.stoppedBy } : {}),
      startedAt: this.startedAt,
      finishedAt: this.finishedAt,
      config: this.config,
      environment: this.environment,
      models: this.models,
      cells: [...this.cells],
    };
  }
}

/**
 * The engines a run without `--engines` sweeps: every registered engine but
 * those that run in a browser. A browser engine starts Chromium per open
 * group and, on a software renderer, can take seconds per batch, which would
 * turn the default run (README's first command) from under two minutes into
 * many; users name them (`--engines browser-onnx-wasm,…`) when they want the
 * browser side. `inferbench engines` still lists them with their availability.
 */
export async function defaultEngineIds(registry: EngineRegistry): Promise<string[]> {
  const out: string[] = [];
  for (const id of registry.ids()) if ((await registry.runsIn(id)) !== 'browser') out.push(id);
  return out;
}
