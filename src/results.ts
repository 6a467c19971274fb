import type { SessionDescription } from './session.js';
import type { SampleStatistics } from './statistics.js';

/** Identifies one cell of a sweep: one engine at one batch size for one model. */
export interface CellKey {
  /** Model name as shown in tables. */
  readonly model: string;
  /** Engine id (or a user-chosen name for `Benchmark.execute`). */
  readonly engine: string;
  readonly batchSize: number;
  /** Threads the user asked for; null means the engine default. */
  readonly requestedThreads: number | null;
}

/** Raw per-batch measurements, kept so every statistic can be recomputed. */
export interface CellSamples {
  /** Engine time per measured batch: inputs in, outputs readable in host memory. */
  readonly runMs: number[];
  /** Time of the item callback (tokenize + collate) per measured batch. */
  readonly prepareMs: number[];
  /** Items in each measured batch (the last batch may be short). */
  readonly items: number[];
}

export interface CompletedCell extends CellKey {
  readonly state: 'completed';
  /** What actually ran, read back from the engine. */
  readonly session: SessionDescription;
  /** Time to load the model into the engine. */
  readonly loadMs: number;
  /** Batches run before measuring; not in `samples`. */
  readonly warmupBatches: number;
  readonly samples: CellSamples;
  /** Statistics of `samples.runMs`. */
  readonly latency: SampleStatistics;
  /** Statistics of `samples.prepareMs`. */
  readonly prepare: SampleStatistics;
  /** Sum of engine time over measured batches. */
  readonly totalMs: number;
  /** Items measured in all. */
  readonly itemsTotal: number;
  /** itemsTotal per second of engine time. */
  readonly samplesPerSecond: number;
  /** Peak resident set size of the process seen during this cell. */
  readonly peakRssBytes: number;
}

export interface ErroredCell extends CellKey {
  readonly state: 'errored';
  readonly reason: string;
  /** Present when the session loaded before the failure. */
  readonly session?: SessionDescription;
}

export interface SkippedCell extends CellKey {
  readonly state: 'skipped';
  readonly reason: string;
}

/** One cell's outcome. Every consumer switches on `state`. */
export type CellResult = CompletedCell | ErroredCell | SkippedCell;

/** Facts about the model under test that reports show beside the numbers. */
export interface ModelInfo {
  readonly name: string;
  /** Folder or file the model came from. */
  readonly source: string;
  /** Bytes on disk of the graph file(s) the engines load. */
  readonly sizeBytes: number;
  /** Caveats a reader must see, e.g. "weights are seeded random". */
  readonly notes: readonly string[];
}

/** Host and software facts recorded with every run. */
export interface EnvironmentInfo {
  readonly inferbenchVersion: string;
  readonly node: string;
  readonly os: string;
  readonly arch: string;
  readonly cpuModel: string;
  readonly cores: number;
  readonly memoryBytes: number;
  /** GPU names from nvidia-smi, empty when none was found. */
  readonly gpus: readonly string[];
  readonly date: string;
  /** Commit of the working directory's git repo, when inside one. */
  readonly gitCommit: string | null;
}

/** Everything one run produced; every report renders from this record alone. */
export interface RunRecord {
  readonly schemaVersion: 1;
  readonly id: string;
  /** `interrupted` when Ctrl-C stopped the sweep; measured cells are kept. */
  readonly state: 'running' | 'completed' | 'interrupted';
  readonly startedAt: string;
  readonly finishedAt: string | null;
  /** Resolved options of the run, as plain JSON. */
  readonly config: Readonly<Record<string, unknown>>;
  readonly environment: EnvironmentInfo;
  readonly models: readonly ModelInfo[];
  readonly cells: readonly CellResult[];
}
