import type { StopRule } from '../core/stop-rule.js';
import type { CellKey } from '../core/results.js';
import type { ModelSpec } from '../models/model-spec.js';

/** One load of one engine at one thread count, measuring one round at every batch size, in a child process. */
export interface IsolatedJob {
  readonly model: ModelSpec;
  /** Dataset path or id; null for the embedded default. */
  readonly dataset: string | null;
  readonly textColumn: string | null;
  readonly labelColumn: string | null;
  readonly limit: number | null;
  /** Rows at the start of the dataset left out (a static-INT8 variant's calibration rows). */
  readonly skipRows: number;
  readonly engine: string;
  readonly threads: number | null;
  readonly keys: readonly CellKey[];
  /** This round's share of the cell's stop rule. */
  readonly stop: StopRule;
  readonly warmupBatches: number;
  readonly parityRows: number;
  /** Which round this process measures, from 0. */
  readonly round: number;
  /** Modules whose exported `engines` array is registered in the child (plug-in and test engines). */
  readonly engineModules: readonly string[];
}
