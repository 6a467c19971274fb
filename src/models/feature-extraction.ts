/**
 * Sentence-embedding models (sentence-transformers exports, bare
 * `BertModel`s): a graph that returns token vectors (`last_hidden_state`,
 * `token_embeddings`) or an already pooled `sentence_embedding`, and no
 * classification head. Tokenized and batched like a classifier; every
 * session it opens is an EmbeddingSession, so each engine returns one
 * pooled (and, if the model says so, normalised) vector per text.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { ResolvedSessionOptions } from '../core/engine.js';
import type { EngineSession, Precision } from '../core/engine-session.js';
import { UserError } from '../core/errors.js';
import type { ModelInfo } from '../core/results.js';
import { EmbeddingSession } from './embedding-session.js';
import { readOnnxSignature } from './onnx-signature.js';
import { describePooling, EMBEDDING_OUTPUT, markPairs, TOKEN_OUTPUTS, type PoolingSpec } from './pooling.js';
import { readSentenceTransformersFolder, type SentenceTransformersFolder } from './sentence-transformers-folder.js';
import { attachTexts } from '../core/raw-texts.js';
import type { TensorMap } from '../core/tensor.js';
import type { DataRow } from '../../datasets/dataset.js';
import { textOf, type ResolvedColumns } from '../../datasets/columns.js';
import { TextClassification, type TextClassificationOptions } from './text-classification.js';

/** Graph outputs a feature-extraction model may return. */
export const EMBEDDING_GRAPH_OUTPUTS: readonly string[] = [EMBEDDING_OUTPUT, ...TOKEN_OUTPUTS];

/**
 * A feature-extraction model in the Hugging Face / sentence-transformers
 * folder layout. It shares TextClassification's folder reading, Hub
 * download and tokenization (the inputs are the same), and differs in what
 * the sessions return.
 */
export class FeatureExtraction extends TextClassification {
  private st: SentenceTransformersFolder | null = null;

  constructor(dirOrId: string, options: TextClassificationOptions = {}) {
    super(dirOrId, options);
  }

  /** Reads the graph signature (TextClassification.init), then the sentence-transformers files, whole (sentence-transformers-folder.ts); a graph with no vector output is refused, naming its outputs. */
  override async init(): Promise<this> {
    if (this.st !== null) return this;
    await super.init();
    const file = join(this.dir, this.onnxFile);
    if (existsSync(file)) {
      const outputs = (await readOnnxSignature(file)).outputs.map((o) => o.name);
      if (!outputs.some((n) => EMBEDDING_GRAPH_OUTPUTS.includes(n))) {
        throw new UserError(
          `${file} has no output to take sentence embeddings from: it returns ${outputs.join(', ') || 'nothing'}, and feature extraction needs ${EMBEDDING_GRAPH_OUTPUTS.join(', ')}`,
          'export the base model (e.g. `optimum-cli export onnx --task feature-extraction`), or run it as a classifier with --task text-classification',
        );
      }
    }
    this.st = readSentenceTransformersFolder(this.dir);
    return this;
  }

  private get folderFiles(): SentenceTransformersFolder {
    if (this.st === null) throw new Error(`FeatureExtraction ${this.name}: init() must be awaited before use`);
    return this.st;
  }

  /** sentence_bert_config.json's max_seq_length, where it is shorter than the model's own limit: sentence-transformers truncates there. */
  override get maxLength(): number {
    const own = super.maxLength;
    const st = this.st?.maxSeqLength ?? null;
    return st !== null && st < own ? st : own;
  }

  /** Texts lower-cased first when sentence_bert_config.json says do_lower_case, as sentence-transformers' Transformer module does. */
  override encode(text: string): { ids: number[]; typeIds: number[] } {
    return super.encode(this.st?.doLowerCase === true ? text.toLowerCase() : text);
  }

  /** Pooling and normalisation the folder declares (modules.json, 1_Pooling/config.json). */
  get pooling(): PoolingSpec {
    return this.folderFiles.pooling;
  }

  /**
   * A batch of texts, or of STS pairs (columns.pair): the first sentences,
   * then the second ones, in one batch of twice the rows, marked so the
   * session returns each row's two vectors side by side.
   */
  override prepareBatch(rows: readonly DataRow[], columns: ResolvedColumns): TensorMap {
    const pair = columns.pair;
    if (!pair) return super.prepareBatch(rows, columns);
    const texts = [...rows.map((r) => textOf(r, columns.text)), ...rows.map((r) => textOf(r, pair.second))];
    return markPairs(attachTexts(this.tokenizeTexts(texts), texts));
  }

  override get labels(): readonly string[] {
    return [];
  }

  override sessionOptions(): Pick<ResolvedSessionOptions, 'featureExtraction'> {
    return { featureExtraction: { pooling: this.pooling.modes, normalize: this.pooling.normalize } };
  }

  override adaptSession(session: EngineSession): EngineSession {
    return new EmbeddingSession(session, this.pooling);
  }

  override isolationSpec(): { kind: 'text-classification'; dir: string; name: string; onnxFile: string; precision: Precision; source?: string; task?: 'feature-extraction' } {
    return { ...super.isolationSpec(), task: 'feature-extraction' };
  }

  override async info(): Promise<ModelInfo> {
    const base = await super.info();
    const notes = base.notes.map((n) => n.replace('labels are meaningless', 'vectors are meaningless'));
    const { maxSeqLength, doLowerCase } = this.folderFiles;
    const truncation = maxSeqLength !== null ? `, truncated at ${this.maxLength} tokens (max_seq_length ${maxSeqLength}, sentence_bert_config.json)` : '';
    return { ...base, notes: [...notes, `feature extraction: ${describePooling(this.pooling)}${truncation}${doLowerCase ? ', texts lower-cased (do_lower_case)' : ''}`] };
  }
}
