/**
 * Named "what if" architectures, after the Hugging Face transformers
 * benchmark's `bert-base` / `bert-384-hid` / `bert-6-lay` comparison. Each is
 * generated with seeded random weights in the same form as the embedded
 * default, so only the shape differs between rows.
 */
import { TINY_BERT_CONFIG, type BertLikeConfig } from './bert-config.js';
import { nameTable } from '../../core/name-lookup.js';

/** A model shape to generate, and the row name it gets. */
export interface ArchitectureSpec {
  /** Row name in every table (the preset name, or the `--config` text). */
  readonly name: string;
  readonly config: BertLikeConfig;
  /**
   * Pad the fitted WordPiece vocabulary with `[unusedN]` tokens up to
   * `config.vocabSize`, so the embedding has the size a real checkpoint of
   * this shape has. Off for `tiny`, which is the embedded default as is.
   */
  readonly padVocabulary: boolean;
}

/** bert-base-uncased's shape (BertConfig defaults). */
const BERT_BASE: BertLikeConfig = Object.freeze({
  ...TINY_BERT_CONFIG,
  vocabSize: 30522,
  hiddenSize: 768,
  numLayers: 12,
  numHeads: 12,
  intermediateSize: 3072,
  maxPositions: 512,
});

/**
 * Built-in presets. `bert-384-hid` and `bert-6-lay` change one field of
 * bert-base each, as `BertConfig(hidden_size=384)` and
 * `BertConfig(num_hidden_layers=6)` do in the transformers benchmark.
 */
export const ARCHITECTURE_PRESETS: Readonly<Record<string, ArchitectureSpec>> = nameTable({
  tiny: { name: 'tiny', config: TINY_BERT_CONFIG, padVocabulary: false },
  'bert-base': { name: 'bert-base', config: BERT_BASE, padVocabulary: true },
  'bert-384-hid': { name: 'bert-384-hid', config: { ...BERT_BASE, hiddenSize: 384 }, padVocabulary: true },
  'bert-6-lay': { name: 'bert-6-lay', config: { ...BERT_BASE, numLayers: 6 }, padVocabulary: true },
  // all-MiniLM-L6-v2's shape: a sentence-embedding encoder (last_hidden_state, mean pooling, Normalize), run as feature extraction.
  minilm: { name: 'minilm', config: { ...BERT_BASE, hiddenSize: 384, numLayers: 6, numHeads: 12, intermediateSize: 1536, task: 'feature-extraction' }, padVocabulary: true },
});

/** Preset names, for help text and error messages. */
export function presetNames(): string[] {
  return Object.keys(ARCHITECTURE_PRESETS);
}
