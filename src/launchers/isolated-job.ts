import type { MeasuredCell } from '../scenarios/classify/measure-cell.js';
import type { StopRule, WarmupRule } from '../core/stop-rule.js';
import type { CellKey } from '../core/results.js';
import type { Precision } from '../core/engine-session.js';

/**
 * How a child process re-creates the model under test. Functions cannot
 * cross a process boundary, so an isolated run names the model instead.
 */
export type ModelSpec =
  | {
      readonly kind: 'text-classification';
      readonly dir: string;
      readonly name?: string;
      /** Graph file of a precision variant (`onnx/model_q4.onnx`), its precision and where it came from. */
      readonly onnxFile?: string;
      readonly precision?: Precision;
      readonly source?: string;
    }
  /** A model run on synthetic inputs of one fixed sequence length (`--sequence-lengths`). */
  | { readonly kind: 'fixed-length'; readonly base: ModelSpec; readonly sequenceLength: number; readonly vocabSize: number; readonly maxLength: number | null }
  | { readonly kind: 'default-classifier' }
  /** A module exporting a BenchmarkModel subclass (constructed with `args`) or an async factory. */
  | { readonly kind: 'module'; readonly path: string; readonly exportName: string; readonly args?: readonly unknown[] };

/** One load of one engine at one thread count, measured at every batch size, in a child process. */
export interface IsolatedJob {
  readonly model: ModelSpec;
  /** Dataset path or id; null for the embedded default. */
  readonly dataset: string | null;
  readonly textColumn: string | null;
  readonly labelColumn: string | null;
  readonly limit: number | null;
  readonly engine: string;
  readonly threads: number | null;
  readonly keys: readonly CellKey[];
  readonly stop: StopRule;
  readonly warmup: WarmupRule;
  readonly maxCv: number;
  readonly parityRows: number;
  /** Modules whose exported `engines` array is registered in the child (plug-in and test engines). */
  readonly engineModules: readonly string[];
}

/** Parent → child. */
export type ParentMessage = { readonly type: 'job'; readonly job: IsolatedJob } | { readonly type: 'abort' };

/** Child → parent. */
export type ChildMessage =
  | { readonly type: 'cell-start'; readonly key: CellKey }
  | { readonly type: 'measured'; readonly measured: MeasuredCell }
  | { readonly type: 'done' }
  | { readonly type: 'fatal'; readonly message: string; readonly userError: boolean; readonly fix?: string };
