/**
 * Architecture of the model inferbench generates when the user brings none.
 * The fields mirror Hugging Face's `BertConfig` (camelCased) so the written
 * `config.json` reads like any BERT checkpoint's, and a reader can compare
 * the benchmarked shape with published models.
 */
import { UserError } from '../../core/errors.js';
import { checkConfigBasics } from './config-checks.js';

export interface BertLikeConfig {
  /**
   * Upper bound of the vocabulary. The WordPiece vocabulary is built from the
   * benchmark texts, so the generated model's `vocab_size` is the number of
   * tokens actually found, at most this.
   */
  readonly vocabSize: number;
  readonly hiddenSize: number;
  /** Transformer layers (`num_hidden_layers`). */
  readonly numLayers: number;
  /** Attention heads per layer; must divide `hiddenSize`. */
  readonly numHeads: number;
  /** Width of the feed-forward block. */
  readonly intermediateSize: number;
  /** Longest sequence the position embeddings cover (`max_position_embeddings`, also the tokenizer's `model_max_length`). */
  readonly maxPositions: number;
  readonly typeVocabSize: number;
  readonly numLabels: number;
  /** Label of each class index, as `config.json` `id2label`. */
  readonly id2label: Readonly<Record<number, string>>;
  readonly layerNormEps: number;
  /** Seed of the weight generator; weights are random because speed does not depend on them. */
  readonly seed: number;
  /**
   * `feature-extraction`: a bare encoder (`BertModel`) whose graph returns
   * `last_hidden_state`, in sentence-transformers layout (mean pooling,
   * Normalize); absent: a sequence classifier with `logits`.
   */
  readonly task?: 'feature-extraction';
}

/** Smallest vocabulary cap that leaves room for the special tokens plus at least one character and its `##` form. */
export const MIN_VOCAB_SIZE = 8;

/**
 * The default: a 2-layer, 128-wide BERT (the size of google/bert_uncased_L-2_H-128_A-2)
 * with a binary sentiment head. Small enough to generate in well under a second
 * and to run on every engine, large enough that matrix products dominate.
 */
export const TINY_BERT_CONFIG: BertLikeConfig = Object.freeze({
  vocabSize: 6000,
  hiddenSize: 128,
  numLayers: 2,
  numHeads: 2,
  intermediateSize: 512,
  maxPositions: 128,
  typeVocabSize: 2,
  numLabels: 2,
  id2label: Object.freeze({ 0: 'NEGATIVE', 1: 'POSITIVE' }),
  layerNormEps: 1e-12,
  seed: 42,
});

const POSITIVE_INTEGER_KEYS = [
  'vocabSize',
  'hiddenSize',
  'numLayers',
  'numHeads',
  'intermediateSize',
  'maxPositions',
  'typeVocabSize',
  'numLabels',
] as const;

/**
 * Checks a config before any work starts, so a typo fails with the key's name
 * instead of as a shape error inside an inference engine. Returns the config
 * for chaining.
 */
export function validateBertConfig(cfg: BertLikeConfig): BertLikeConfig {
  checkConfigBasics(cfg, 'Model config', { keys: POSITIVE_INTEGER_KEYS, defaults: TINY_BERT_CONFIG }, { width: 'hiddenSize', heads: 'numHeads' }, '1e-12 (the BERT default)');
  if (cfg.vocabSize < MIN_VOCAB_SIZE) {
    throw new UserError(
      `Model config key vocabSize (${cfg.vocabSize}) is below ${MIN_VOCAB_SIZE}, too small for the special tokens and any text.`,
      `Set vocabSize to at least ${MIN_VOCAB_SIZE}; the default is ${TINY_BERT_CONFIG.vocabSize}.`,
    );
  }
  if (cfg.maxPositions < 2) {
    throw new UserError(
      `Model config key maxPositions (${cfg.maxPositions}) leaves no room for [CLS] and [SEP].`,
      'Set maxPositions to at least 2; the default is 128.',
    );
  }
  validateLabels(cfg);
  return cfg;
}

function validateLabels(cfg: BertLikeConfig): void {
  const labels = cfg.id2label as Readonly<Record<string, unknown>> | null | undefined;
  if (typeof labels !== 'object' || labels === null) {
    throw new UserError('Model config key id2label must map each class index to a label.', "Set id2label, e.g. { 0: 'NEGATIVE', 1: 'POSITIVE' }.");
  }
  const seen = new Set<string>();
  for (let i = 0; i < cfg.numLabels; i++) {
    const label = labels[String(i)];
    if (typeof label !== 'string' || label.trim() === '') {
      throw new UserError(
        `Model config key id2label has no label for class ${i} (numLabels is ${cfg.numLabels}).`,
        `Give id2label one non-empty label for each index 0..${cfg.numLabels - 1}, or change numLabels.`,
      );
    }
    if (seen.has(label)) {
      throw new UserError(`Model config key id2label uses the label ${label} twice.`, 'Give each class a distinct label.');
    }
    seen.add(label);
  }
  const extra = Object.keys(labels).filter((k) => !(Number.isInteger(Number(k)) && Number(k) >= 0 && Number(k) < cfg.numLabels));
  if (extra.length > 0) {
    throw new UserError(
      `Model config key id2label has keys outside 0..${cfg.numLabels - 1}: ${extra.join(', ')}.`,
      'Remove those entries from id2label, or raise numLabels to match.',
    );
  }
}
