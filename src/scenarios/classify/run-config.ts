/**
 * The run's configuration type, apart from the code that resolves and runs
 * it (classify-run.ts), so the queue sweep can name its fields without an
 * import cycle.
 */
import type { ModelDtype } from '../../core/dtypes.js';
import { expandEngineVariants } from '../../core/engine-options.js';
import type { ArchitectureSpec } from '../../models/generated/arch-presets.js';
import type { TextTask } from '../../models/text-task.js';
import type { CalibrationMethod } from '../../models/quantize/calibration-methods.js';

/**
 * Everything that defines a run, as plain JSON. It is what a results file
 * records and what a re-run replays, so every field is resolved (no hidden
 * defaults that could change between versions).
 */
export interface RunConfig {
  /** First of `models`, kept for readers of older results; null means the embedded default model. */
  readonly model: string | null;
  /** Model folders or Hub ids (`org/name`); empty means the embedded default unless `architectures` are given. */
  readonly models: readonly string[];
  /** Hub revision (branch, tag or commit) for Hub ids; null means `main`. */
  readonly revision: string | null;
  /** transformers.js dtypes to run as separate rows (`onnx/model_q4.onnx`…); null runs `onnx/model.onnx` only. */
  readonly dtypes: readonly ModelDtype[] | null;
  /** `--task`: every model runs as this task; null or absent detects it from each folder (a classifier or feature extraction). */
  readonly task?: TextTask | null;
  /** `--save-outputs`: write outputs.parquet with the reference engine's outputs and those of every cell that failed parity. Absent: off. */
  readonly saveOutputs?: boolean;
  /** `--skip-bad-rows`: STS pairs that cannot be scored are left out, and noted, instead of refused (datasets/sts-pairs.ts). Absent: off. */
  readonly skipBadRows?: boolean;
  /** Generated "what if" architectures, each its own row. */
  readonly architectures: readonly ArchitectureSpec[];
  /** Fixed sequence lengths of synthetic inputs; null tokenizes the dataset's texts. */
  readonly sequenceLengths: readonly number[] | null;
  /** Engines to run; null means every engine available on the machine. */
  readonly engines: readonly string[] | null;
  /** Set on the last rung of `inferbench tune`: the search it ends (its candidates and rungs are in tune.csv beside results.json). */
  readonly tune?: { readonly method: 'successive halving'; readonly engines: readonly string[]; readonly candidates: number; readonly rungs: number };
  /** `--engine-options` as given (`ENGINE:key=v1|v2`), checked; each engine named runs as its variants (`runEngines`). Absent: defaults. */
  readonly engineOptions?: readonly string[];
  readonly batchSizes: readonly number[];
  /** Thread counts to sweep; `[null]` is one pass at each engine's default. */
  readonly threads: readonly (number | null)[];
  /** Dataset path or Hugging Face Hub id; null means the embedded default dataset. */
  readonly dataset: string | null;
  /** Hub dataset config (subset); null picks the only one or `default`. */
  readonly datasetConfig?: string | null;
  /** Hub split or DatasetDict folder split; null means `train`. */
  readonly split?: string | null;
  readonly textColumn: string | null;
  readonly labelColumn: string | null;
  readonly limit: number | null;
  readonly warmupBatches: number;
  /** Independent rounds per cell (fresh open each, interleaved across engines); the CI is across round means. */
  readonly rounds: number;
  /** Output root; the run writes `<out>/<run-id>/`. */
  readonly out: string;
  readonly png: boolean;
  /** Stop rule: minimum time and batches, maximum time, per cell. */
  readonly stop: { readonly minTimeMs: number; readonly minBatches: number; readonly maxTimeMs: number };
  /** Coefficient of variation above which a cell is NOISY. */
  readonly maxCv: number;
  /** Parity reference engine (null: off) and absolute tolerance. */
  readonly parity: { readonly reference: string | null; readonly tolerance: number };
  /** Each engine open in its own child process. */
  readonly isolate: boolean;
  /**
   * Rows at the start of the dataset a q8-static variant is calibrated on
   * (only used when `dtypes` has q8-static); every cell then streams the rows
   * after them, so accuracy is never measured on calibration rows.
   * Absent in runs recorded before static quantization existed.
   */
  readonly calibrationRows?: number;
  /** How calibration reduces activations to ranges: minmax (default) or percentile. */
  readonly calibrationMethod?: CalibrationMethod;
  /** `--profile`: one untimed op-level profiled pass per cell after its timed rounds (profile.csv, profile.parquet). Absent: off. */
  readonly profile?: boolean;
}

/** The engines a run sweeps: `engines` with each engine given options replaced by its variants (engine-options.ts). */
export function runEngines(config: Pick<RunConfig, 'engines' | 'engineOptions'>): readonly string[] | null {
  if (config.engines === null || (config.engineOptions ?? []).length === 0) return config.engines;
  return expandEngineVariants(config.engines, config.engineOptions ?? []);
}
