/**
 * The one run driver every scenario goes through (`inferbench run`,
 * `inferbench generate`, next `train`): choose the engines, create the run
 * id and folder, record the environment, save the record after every cell,
 * keep what was measured on Ctrl-C or a failure, and write the final files.
 * A scenario brings only its sweep and its writer.
 */
import { unavailableText, type EngineRegistry } from '../core/engine-registry.js';
import { collectEnvironment } from '../core/environment.js';
import { describeError } from '../core/errors.js';
import type { ModelInfo, RunRecord, RunRecordOf } from '../core/results.js';
import { createRunDir, newRunId, RunSession } from './run-record.js';

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
  /** `generation` for generate runs; absent for classification (older readers expect no kind). */
  readonly kind?: 'generation';
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
  const { runnable, unavailable } = await registry.selectRunnable(scenario.engines ?? registry.ids());
  const engines = scenario.engines ?? runnable;
  const id = newRunId();
  const dir = await createRunDir(scenario.out, id);
  const config = scenario.recordedConfig(
    engines,
    unavailable.map((s) => ({ id: s.id, reason: unavailableText(s) })),
  );
  const session = new RunSession<C>(id, dir, config, collectEnvironment(), scenario.models, scenario.kind);
  const snapshot = () => session.snapshot() as unknown as R;
  await hooks.onStart?.(snapshot(), dir);
  try {
    await scenario.sweep(engines, async (cell) => {
      session.cells.push(cell);
      const record = snapshot();
      await scenario.write(record, dir, { png: false });
      await hooks.onCell?.(cell, record);
    });
  } catch (err) {
    session.finish('interrupted');
    await scenario.write(snapshot(), dir, { png: false }).catch(() => {});
    throw err;
  }
  session.finish(hooks.signal?.aborted ? 'interrupted' : 'completed');
  const record = snapshot();
  try {
    const { paths, warnings } = await scenario.write(record, dir, { png: scenario.png });
    return { record, dir, paths, warnings };
  } catch (err) {
    if (!scenario.png) throw err;
    const { paths, warnings } = await scenario.write(record, dir, { png: false });
    return { record, dir, paths, warnings: [`charts not written: ${describeError(err)}`, ...warnings] };
  }
}
