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
      /** Set for a feature-extraction model (the sessions return pooled sentence embeddings). */
      readonly task?: 'feature-extraction';
    }
  /** A model run on synthetic inputs of one fixed sequence length (`--sequence-lengths`). */
  | { readonly kind: 'fixed-length'; readonly base: ModelSpec; readonly sequenceLength: number; readonly vocabSize: number; readonly maxLength: number | null }
  | { readonly kind: 'default-classifier' }
  /** A module exporting a BenchmarkModel subclass (constructed with `args`) or an async factory. */
  | { readonly kind: 'module'; readonly path: string; readonly exportName: string; readonly args?: readonly unknown[] };
