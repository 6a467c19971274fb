import type { EnvironmentInfo, ModelInfo } from '../../core/results.js';
import type { ScenarioRecord } from '../../scenarios/scenario-registry.js';

/** What the history keeps of any scenario's cell: its key columns, its state and reason; the rest is its JSON. */
export interface HistoryCell {
  readonly engine: string;
  readonly batchSize: number;
  readonly requestedThreads: number | null;
  readonly state: string;
  readonly reason?: string;
}

/**
 * What an entry replays: any scenario's config, as its scenario wrote it
 * (`command` names the scenario; a `run`'s names none, as older entries
 * do). The history reads no other field of it, so a scenario it does not
 * know stores its config as well as a built-in.
 */
export interface StoredConfig {
  readonly command?: string;
  readonly out?: string;
  readonly engines?: readonly string[] | null;
}

/**
 * Life of a history entry. `queued` waits in a dashboard's queue; `failed`
 * means the run stopped on an error before or while measuring;
 * `interrupted` means it was stopped (Ctrl-C, cancel) or its process died,
 * with every cell measured before that kept.
 */
export type HistoryState = 'queued' | 'running' | 'completed' | 'failed' | 'interrupted';

/** Where a run was started from, so a list can tell CLI runs from dashboard ones. */
export type HistorySource = 'cli' | 'api' | 'web';

/** The best completed cell of a run, as one figure a list can show, with the whole key of its cell. */
export interface HeadlineFigure {
  /** The cell's model row: the model, `--config` architecture or precision variant (`tiny-bert · q8`). */
  readonly model: string;
  readonly engine: string;
  readonly batchSize: number;
  readonly requestedThreads: number | null;
  /** Fixed sequence length of the cell (`--sequence-lengths`); null for dataset text. */
  readonly sequenceLength: number | null;
  /** Queue worker that measured it (`run --queue`); null for a local cell. */
  readonly host: string | null;
  readonly samplesPerSecond: number;
}

/** One benchmark in the history: its replayable config, state, links and summary. */
export interface HistoryEntry {
  /** Short id users type (`inferbench show 3`). */
  readonly id: number;
  /** Run folder id (`<out>/<runId>/`); null until the run has started. */
  readonly runId: string | null;
  readonly dir: string | null;
  readonly state: HistoryState;
  readonly source: HistorySource;
  readonly createdAt: string;
  readonly startedAt: string | null;
  readonly finishedAt: string | null;
  /** The fully resolved config: `rerun` replays exactly this. */
  readonly config: StoredConfig;
  /** What the run recorded about its config once started (resolved model path and engines). */
  readonly recordedConfig: Readonly<Record<string, unknown>> | null;
  readonly environment: EnvironmentInfo | null;
  readonly models: readonly ModelInfo[];
  /** The entry this one re-ran, if any (it may have been removed since). */
  readonly rerunOf: number | null;
  /** The entry chosen to compare against when this one was added, if any. */
  readonly compareWith: number | null;
  /** Why a run failed or was interrupted by a dead process. */
  readonly error: string | null;
  readonly cellsDone: number;
  /** Cells in the sweep, once known. */
  readonly cellsTotal: number | null;
  readonly headline: HeadlineFigure | null;
  /** Process that owns a queued or running entry; a dead owner means the run was interrupted. */
  readonly ownerPid: number;
  readonly ownerHost: string;
  /** Random id of the owner process (see owner.ts); tells this process's entries from a reused pid's. */
  readonly ownerToken: string | null;
}

/** A history entry with its cells, enough to rebuild the RunRecord. */
export interface HistoryDetail extends HistoryEntry {
  /** Each cell as its scenario recorded it (its JSON), keyed as every scenario's cells are. */
  readonly cells: readonly HistoryCell[];
}

/** The run record the history rebuilds, of whichever scenario its kind names. */
export type AnyRunRecord = ScenarioRecord;


/** Engines of an entry for lists: the resolved ones once started, else the requested ones. */
export function entryEngines(entry: HistoryEntry): readonly string[] {
  const resolved = entry.recordedConfig?.['enginesResolved'];
  if (Array.isArray(resolved)) return resolved.map(String);
  return entry.config.engines ?? ['every available'];
}
