import type { CellProfile } from './op-profile.js';
import type { OpenPhases, SessionDescription } from './engine-session.js';

export type { OpenPhases } from './engine-session.js';
import type { SampleStatistics } from './statistics.js';
import type { EnergyFigure, GpuMemoryFigure, Measured } from './energy.js';

/** Identifies one cell of a sweep: one engine at one batch size for one model. */
export interface CellKey {
  /** Model name as shown in tables. */
  readonly model: string;
  /** Engine id (or a user-chosen name for `Benchmark.execute`). */
  readonly engine: string;
  readonly batchSize: number;
  /** Threads the user asked for; null means the engine default. */
  readonly requestedThreads: number | null;
  /** Fixed sequence length of synthetic inputs (`--sequence-lengths`); absent or null when inputs come from dataset text. */
  readonly sequenceLength?: number | null;
  /** The worker that measured this cell in a distributed sweep (`run --queue`); absent in local runs. */
  readonly host?: CellHost;
}

/** A queue worker: its `--name` and the fingerprint id of its machine (see the run config's `queue.workers`). */
export interface CellHost {
  readonly name: string;
  readonly id: string;
  /** Times the cell's job was handed to another worker because the one running it died (BullMQ stalled-job detection). */
  readonly retries?: number;
}

/** Raw per-batch measurements, kept so every statistic can be recomputed. */
export interface CellSamples {
  /** Engine time of each untimed batch of the first round (its warm pass over every row, then any extra `--warmup` batches), reported apart from the measured ones. */
  readonly warmupMs?: number[];
  /** Engine time per measured batch: inputs in, outputs readable in host memory. */
  readonly runMs: number[];
  /** Time of the item callback (tokenize + collate) per measured batch. */
  readonly prepareMs: number[];
  /** Items in each measured batch (the last batch may be short). */
  readonly items: number[];
  /** Raw model forward time inside each measured engine call, for pipeline engines (`EngineSession.innerForwardMs`). */
  readonly forwardMs?: number[];
  /**
   * End to end per measured batch: for plain engines the item callback
   * (tokenize, collate, wrap), the engine call and reading its outputs back;
   * for pipeline engines (transformers.js) the pipeline call, which
   * tokenizes and post-processes itself. Absent in records from before it.
   */
  readonly endToEndMs?: number[];
}

export interface CompletedCell extends CellKey {
  readonly state: 'completed';
  /** What actually ran, read back from the engine. */
  readonly session: SessionDescription;
  /** Time to open the model on the engine. */
  readonly openMs: number;
  /** Untimed batches the first round ran before measuring (its warm pass and any extra); not in `samples.runMs`. */
  readonly warmupBatches: number;
  readonly samples: CellSamples;
  /** Statistics of `samples.runMs`. */
  readonly latency: SampleStatistics;
  /** Statistics of `samples.prepareMs`. */
  readonly prepare: SampleStatistics;
  /** Statistics of `samples.forwardMs`: the raw forward inside a pipeline engine's calls; absent on plain engines. */
  readonly forward?: SampleStatistics;
  /**
   * Sum of the timed call over every measured batch of every round: a raw
   * sum whose size depends on how many passes the stop rule allowed, so no
   * report shows it; the per-pass total is derived in reports/views.ts.
   */
  readonly totalMs: number;
  /** Items measured in all. */
  readonly itemsTotal: number;
  /** itemsTotal per second of the timed call, pooled over every batch (raw; reports derive samples/s from round means). */
  readonly samplesPerSecond: number;
  /** Peak resident set size of the process seen during this cell. */
  readonly peakRssBytes: number;
  /** Whether the figures can be trusted, with the reasons when not. */
  readonly verdict?: CellVerdict;
  /** Memory measured while the timed loop ran. */
  readonly memory?: CellMemory;
  /** Energy over the timed loops. Absent in older records. */
  readonly energy?: CellEnergy;
  /** Open time and first-batch latency of the first round, before any warmup (see `ColdStart`). */
  readonly coldStart?: ColdStart;
  /** Agreement of this cell's outputs with the reference engine's on the same rows; null when not checked. */
  readonly parity?: CellParity | null;
  /** Why `parity` is null when it should have been checked, e.g. "reference onnx-cpu failed to open: …". */
  readonly parityUnavailable?: string;
  /** Fraction of rows whose argmax equals the dataset label; null without labels, or when the engine did not see every row of a pass (`accuracyRows` says how many it saw). */
  readonly accuracy?: number | null;
  /** The rows accuracy was counted on: every row of one pass (`seen === of`), or only `seen` of them, when accuracy is null. Absent in older records. */
  readonly accuracyRows?: AccuracyRows;
  /**
   * STS quality of a feature-extraction cell on pairs data: Spearman of the
   * pairs' cosine against the gold score over every pair of one pass; null
   * when the engine did not see them all; absent without STS pairs.
   */
  readonly sts?: { readonly spearman: number | null; readonly pairs: number; readonly why?: string } | null;
  /** `run --profile`: the op-level profile of one untimed pass after the timed rounds (op-profile.ts); absent without the flag. */
  readonly profile?: CellProfile;
  /** One pass over the rows at this batch size: rows and batches (the last may be short). Absent in older records. */
  readonly pass?: { readonly rows: number; readonly batches: number };
  /** Which rows this cell streamed: their count and a content hash, so `compare` can tell cells that saw other data. Absent in older records. */
  readonly rowSet?: RowFingerprint;
  /**
   * Every independent round of this cell, in the order they ran, with its
   * raw samples; `samples` and `latency` pool them. Absent in runs recorded
   * before rounds existed (they count as one round).
   */
  readonly rounds?: readonly CellRound[];
  /**
   * The mean per-batch latency across rounds: the figure `compare` and the
   * verdict judge, because between-round drift is what a re-run sees.
   */
  readonly betweenRounds?: BetweenRounds;
  /** The untimed first pass over every row at this batch size (every padded shape seen once), of the first round. */
  readonly firstPass?: { readonly ms: number; readonly batches: number; readonly items: number };
  /** Set when Ctrl-C stopped this cell part-way: its samples are kept, and it is never VALID. */
  readonly interrupted?: boolean;
}

/** One independent round: a fresh engine open (a fresh process when isolated), an untimed warm pass, then whole timed passes. */
export interface CellRound {
  /** Position of this round in the cell's sequence of rounds, from 0. */
  readonly index: number;
  readonly runMs: number[];
  readonly prepareMs: number[];
  readonly items: number[];
  /** Whole timed passes over the rows. */
  readonly passes: number;
  /** Mean engine time per batch over this round's timed passes (each row weighted equally across engines). */
  readonly meanMs: number;
  readonly openMs: number;
  /** Engine time of the untimed warm pass over every row. */
  readonly firstPassMs: number;
  /** Signs of a noisy machine around this round (see `HostNoise`). */
  readonly noise?: { readonly before: HostNoise; readonly after: HostNoise };
  /** The pipeline's own forward per timed batch, for pipeline engines (see `CellSamples.forwardMs`). */
  readonly forwardMs?: number[];
  /** End to end per timed batch (see `CellSamples.endToEndMs`). */
  readonly endToEndMs?: number[];
  /** This round's open and first batch, and what ran before it on the same open (see `ColdStart`). */
  readonly coldStart?: ColdStart;
}

/**
 * Where a cell's cold figures come from. An open group measures its batch
 * sizes one after another on one opened session, so only the first batch
 * size measured after the open sees a cold engine; later ones find it warm.
 */
export interface ColdStart {
  /** The session create alone when the engine reported its open phases, else everything the timed open did (`openTimed`, src/scenarios/classify/open-group.ts). */
  readonly openMs: number;
  /** The first batch at this batch size; cold only when `afterOpen` is true. */
  readonly firstBatchMs: number;
  /** True when this batch size was the first measured after the open; absent in older records. */
  readonly afterOpen?: boolean;
  /** Batch sizes measured earlier on the same open, in order (empty when `afterOpen`). */
  readonly measuredBefore?: readonly number[];
  /** The open in its parts, when the engine reported them. */
  readonly phases?: OpenPhases;
}

/** Accuracy's rows: counted (labelled rows), seen and the rows of one pass. */
export interface AccuracyRows {
  /** Rows with a usable label whose prediction was counted. */
  readonly counted: number;
  /** Rows the engine produced outputs for in the pass used. */
  readonly seen: number;
  /** Rows of one whole pass. */
  readonly of: number;
}

/** A content hash of the rows a cell streamed (texts in order), and their count. */
export interface RowFingerprint {
  readonly rows: number;
  /** sha256 hex of the rows' texts in order, each followed by a NUL. */
  readonly sha256: string;
}

/** Load average, CPU time of other processes and CPU steal read from the OS, to flag a busy or oversubscribed machine (see core/host-noise.ts). */
export interface HostNoise {
  /** 1-minute load average divided by the number of cores; recorded, not judged (inferbench's own threads are in it). */
  readonly loadPerCore: number;
  /** Share of CPU time stolen by the hypervisor since the previous reading (0..1), from /proc/stat; null where unknown. */
  readonly stealShare: number | null;
  /**
   * Share of the machine's CPU time (all cores) since the previous reading used by processes other
   * than inferbench's own (0..1): /proc/stat busy time minus the utime + stime of inferbench's
   * processes. Null where unknown (no /proc, or no previous reading); absent in older records.
   */
  readonly otherCpuShare?: number | null;
  /** Cores the shares are of (`availableParallelism()`); absent in older records. */
  readonly cores?: number;
}

/** The mean across round means with its 95% CI (Student t on the log scale, rounds − 1 degrees of freedom; INTERVAL_METHOD). */
export interface BetweenRounds {
  readonly rounds: number;
  readonly means: readonly number[];
  readonly mean: number;
  readonly stdev: number;
  readonly ci95: { readonly low: number; readonly high: number; readonly halfWidth: number } | null;
}

/** VALID when the cell met its stop rule with a low enough spread; NOISY otherwise, with why. */
export interface CellVerdict {
  readonly status: 'VALID' | 'NOISY';
  readonly reasons: readonly string[];
  /** Host noise signs (high load, CPU steal) seen around the rounds; shown beside the verdict, they do not decide it. */
  readonly warnings?: readonly string[];
}

/** Memory figures of one cell. */
export interface CellMemory {
  /** RSS after the model opened and warmed up, before the timed loop. */
  readonly baselineRssBytes: number;
  /** Highest RSS sampled while the timed loop ran. */
  readonly peakRssBytes: number;
  /** peak − baseline: what the timed loop itself added. */
  readonly growthBytes: number;
  /** How often RSS was sampled (samples per second achieved); 0 when `peakSource` is `kernel`. */
  readonly sampleHz: number;
  /** `kernel`: the kernel's exact high-water mark over the timed loop (Linux; nothing sampled); `sampled`: a worker thread's readings. Absent in older records (sampled). */
  readonly peakSource?: 'kernel' | 'sampled';
  /**
   * Whose RSS the figures are when the engine did not run in the measuring
   * Node process (a browser cell's Chromium renderer), or why only the Node
   * driver's could be read. Absent: this process, where the engine ran.
   */
  readonly process?: { readonly label: string; readonly detail: string };
  /** Engine-reported memory (tfjs `tf.memory()`), when the engine has it. */
  readonly engine?: { readonly numTensors: number; readonly numBytes: number } | null;
  /** How the engine was run: in a fresh child process per open, or in the measuring process beside others (`--no-isolate`, `Benchmark` default). Absent in older records. */
  readonly isolation?: 'isolated' | 'in-process';
  /** Batch sizes measured before this one on the same open, in the same process: their allocations are in `baselineRssBytes`. Absent in older records. */
  readonly ranBefore?: readonly number[];
  /** GPU memory this process held when the timed loop ended (one nvidia-smi reading), when a GPU is present. */
  readonly gpuBytes?: number | null;
  /** Peak GPU memory of this process sampled during the timed loop, or why it is unmeasurable here. Absent in older records. */
  readonly gpu?: Measured<GpuMemoryFigure>;
}

/** Energy of a cell's timed loops (every round summed), or why the hardware gave none; never a 0 that was not measured. */
export interface CellEnergy {
  /** NVIDIA board power integrated over the loop. */
  readonly gpu: Measured<EnergyFigure>;
  /** RAPL package counters over the loop. */
  readonly cpu: Measured<EnergyFigure>;
}

/** Output agreement with a reference engine. */
export interface CellParity {
  /** Engine id the outputs were compared with. */
  readonly reference: string;
  /** Largest absolute difference over every output element compared. */
  readonly maxAbsDiff: number;
  /** Fraction of rows whose argmax matches the reference (0..1). */
  readonly argmaxAgreement: number;
  readonly tolerance: number;
  /** maxAbsDiff ≤ tolerance, or for embeddings minCosine ≥ 1 − tolerance; false must be impossible to miss in every report. */
  readonly withinTolerance: boolean;
  /** Rows compared. */
  readonly rows: number;
  /** Set for sentence embeddings (feature extraction): the smallest and mean cosine similarity of a row's vector with the reference's, over `rows`. */
  readonly cosine?: { readonly min: number; readonly mean: number };
}

export interface ErroredCell extends CellKey {
  readonly state: 'errored';
  readonly reason: string;
  /** Present when the session opened before the failure. */
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
  /** Bytes on disk of the graph file(s) the engines open. */
  readonly sizeBytes: number;
  /** Caveats a reader must see, e.g. "weights are seeded random". */
  readonly notes: readonly string[];
  /** Set when this row is one precision variant (`--dtype`) of a model. */
  readonly variant?: ModelVariantInfo | null;
  /** Set for a generated "what if" architecture (`--config`): its shape. */
  readonly architecture?: Readonly<Record<string, number>> | null;
}

/** Which model a precision variant belongs to and how it compares with that model's fp32 graph. */
export interface ModelVariantInfo {
  /** Name of the model the variant belongs to (rows of one model share it). */
  readonly of: string;
  /** transformers.js dtype name: fp32, fp16, q8, q4… */
  readonly dtype: string;
  /** Graph file inside the model folder, e.g. `onnx/model_q4.onnx`. */
  readonly file: string;
  /** Outputs against the fp32 graph's on the same rows; null when not measured (no fp32 file, no onnx-cpu). */
  readonly parity: VariantParity | null;
  /** Set when inferbench wrote this file (the model had none): `inferbench`. */
  readonly quantizedBy?: 'inferbench';
  /** How it was written, e.g. `dynamic uint8 as quantize_dynamic writes it: …`. */
  readonly method?: string;
  /** The dataset rows a static variant was calibrated on; the run measured the rows after them. */
  readonly calibration?: { readonly rows: number; readonly method: string } | null;
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

/**
 * Everything one run produced, for any kind of cell; every report renders
 * from this record alone. Classification and generation runs share it.
 */
export interface RunRecordOf<Cell> {
  readonly schemaVersion: 1;
  readonly id: string;
  /** `interrupted` when Ctrl-C stopped the sweep; measured cells are kept. */
  readonly state: 'running' | 'completed' | 'interrupted';
  /** What interrupted the run when it was not a signal: `disk full` (the run stopped there, every measured cell kept). */
  readonly stoppedBy?: string;
  readonly startedAt: string;
  readonly finishedAt: string | null;
  /** Resolved options of the run, as plain JSON. */
  readonly config: Readonly<Record<string, unknown>>;
  readonly environment: EnvironmentInfo;
  readonly models: readonly ModelInfo[];
  readonly cells: readonly Cell[];
}

/** The record of an `inferbench run` sweep. */
export type RunRecord = RunRecordOf<CellResult>;

/** Agreement of a variant's outputs with the fp32 model's. */
export interface VariantParity {
  /** dtype compared against, normally fp32. */
  readonly reference: string;
  /** Engine both graphs ran on. */
  readonly engine: string;
  /** Largest absolute difference over every output element. */
  readonly maxAbsDiff: number;
  /** Mean absolute difference over every output element. */
  readonly meanAbsDiff: number;
  /** Fraction of rows whose argmax (predicted class) matches the reference (0..1). */
  readonly argmaxAgreement: number;
  /** Rows compared. */
  readonly rows: number;
  /** Set for sentence embeddings: the smallest and mean cosine similarity of a row's vector with the fp32 vector. */
  readonly cosine?: { readonly min: number; readonly mean: number };
}

export { notRunInterrupted } from './stop-cause.js';
