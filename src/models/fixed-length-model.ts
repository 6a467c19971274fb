import { BenchmarkModel, type ExportOptions, type InputSpec } from './benchmark-model.js';
import type { ModelFormat, ResolvedSessionOptions } from '../core/engine.js';
import { CellSkip } from '../core/errors.js';
import type { ModelInfo } from '../core/results.js';
import type { EngineSession, Precision } from '../core/engine-session.js';
import type { TensorMap } from '../core/tensor.js';
import type { ModelSpec } from './model-spec.js';
import { mulberry32, tensorSeed } from './generated/bert-graph.js';
import type { DataRow } from '../../datasets/dataset.js';
import type { ResolvedColumns } from '../../datasets/columns.js';

/** Token ids below this are special tokens in BERT vocabularies ([PAD] [UNK] [CLS] [SEP] [MASK]); synthetic ids avoid them. */
const FIRST_PLAIN_ID = 5;

/** Seed of one row's ids: FNV-1a of its text, so every engine and batch size sees the same ids for the same row. */
function rowSeed(text: string, length: number): number {
  return tensorSeed(length, text);
}

/**
 * Runs a model on synthetic inputs of one fixed sequence length instead of
 * tokenized text, as the transformers benchmark's batch × sequence grid does:
 * `input_ids` are drawn deterministically from the vocabulary (seeded by each
 * row's text), `attention_mask` is all ones and `token_type_ids` all zeros.
 * Rows still come from the dataset, so batch counts match the text runs.
 * Everything else (graph, export methods, info) is the wrapped model's.
 */
export class FixedLengthModel extends BenchmarkModel {
  readonly name: string;
  override readonly precision: Precision;

  constructor(
    readonly base: BenchmarkModel,
    readonly sequenceLength: number,
    private readonly vocabSize: number,
    /** Longest sequence the model accepts; longer lengths skip every cell with the reason. */
    private readonly maxLength: number | null = null,
  ) {
    super();
    this.name = base.name;
    this.precision = base.precision;
  }

  /** Lets an isolated child process re-create this wrapper around the base model's own spec; null when the base has none. */
  isolationSpec(): ModelSpec | null {
    const base = (this.base as BenchmarkModel & { isolationSpec?: () => ModelSpec | null }).isolationSpec?.() ?? null;
    return base === null ? null : { kind: 'fixed-length', base, sequenceLength: this.sequenceLength, vocabSize: this.vocabSize, maxLength: this.maxLength };
  }

  get inputs(): readonly InputSpec[] {
    return this.base.inputs;
  }

  async init(): Promise<this> {
    const withInit = this.base as BenchmarkModel & { init?: () => Promise<unknown> };
    if (typeof withInit.init === 'function') await withInit.init();
    return this;
  }

  onnxPath(): string | Promise<string> {
    return this.base.onnxPath();
  }

  override nativeModelPath(format: ModelFormat): string | null | Promise<string | null> {
    return this.base.nativeModelPath(format);
  }

  override sessionOptions(): Pick<ResolvedSessionOptions, 'featureExtraction'> {
    return this.base.sessionOptions();
  }

  override adaptSession(session: EngineSession): EngineSession {
    return this.base.adaptSession(session);
  }

  override modelFile(format: ModelFormat): Promise<string> {
    return this.base.modelFile(format);
  }

  override exportToNative(options: ExportOptions = {}): Promise<EngineSession> {
    return this.base.exportToNative(options);
  }

  override info(): Promise<ModelInfo> {
    return this.base.info();
  }

  prepareBatch(rows: readonly DataRow[], columns: ResolvedColumns): TensorMap {
    const seq = this.sequenceLength;
    if (this.maxLength !== null && seq > this.maxLength) {
      throw new CellSkip(`sequence length ${seq} exceeds ${this.name}'s maximum of ${this.maxLength} positions`);
    }
    const batch = rows.length;
    const ids = new BigInt64Array(batch * seq);
    const span = Math.max(1, this.vocabSize - FIRST_PLAIN_ID);
    const offset = this.vocabSize > FIRST_PLAIN_ID ? FIRST_PLAIN_ID : 0;
    rows.forEach((row, b) => {
      const random = mulberry32(rowSeed(String(row[columns.text] ?? b), seq));
      for (let i = 0; i < seq; i++) ids[b * seq + i] = BigInt(offset + Math.floor(random() * span));
    });
    const byName: Record<string, BigInt64Array> = {
      input_ids: ids,
      attention_mask: new BigInt64Array(batch * seq).fill(1n),
      token_type_ids: new BigInt64Array(batch * seq),
    };
    const out: TensorMap = {};
    for (const spec of this.inputs) {
      const data = byName[spec.name];
      if (!data) throw new CellSkip(`--sequence-lengths cannot fill model input "${spec.name}" (only input_ids, attention_mask, token_type_ids)`);
      out[spec.name] = spec.dtype === 'int32'
        ? { dtype: 'int32', dims: [batch, seq], data: Int32Array.from(data, Number) }
        : { dtype: 'int64', dims: [batch, seq], data };
    }
    return out;
  }
}
