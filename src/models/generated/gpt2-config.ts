/**
 * Architecture of the text-generation model inferbench generates when the
 * user brings none. Field names mirror Hugging Face's `GPT2Config`
 * (camelCased: `n_embd` is `nEmbd`) so the written `config.json` reads like
 * any GPT-2 checkpoint's.
 */
import { UserError } from '../../core/errors.js';
import { checkConfigBasics } from './config-checks.js';

export interface Gpt2LikeConfig {
  /**
   * Upper bound of the vocabulary. The byte-level BPE vocabulary is trained on
   * the benchmark texts, so the generated model's `vocab_size` is the number
   * of tokens training produced, at most this.
   */
  readonly vocabSize: number;
  /** Width of the residual stream (`n_embd`). */
  readonly nEmbd: number;
  /** Transformer blocks (`n_layer`). */
  readonly nLayer: number;
  /** Attention heads per block (`n_head`); must divide `nEmbd`. */
  readonly nHead: number;
  /** Context length: rows of the position embedding (`n_positions`, the tokenizer's `model_max_length`). */
  readonly nPositions: number;
  readonly layerNormEps: number;
  /** Seed of the weight generator; weights are random because speed does not depend on them. */
  readonly seed: number;
}

/** Smallest vocabulary cap: the 256 byte symbols plus `<|endoftext|>`. */
export const MIN_GPT2_VOCAB_SIZE = 257;

/**
 * The default: a 2-block, 128-wide GPT-2 with GPT-2's context of 1024
 * positions. Small enough to generate in well under a second and to decode on
 * every engine, shaped like GPT-2 so the op mix (fused QKV, KV-cache concat,
 * tanh GELU, tied LM head) is the real one.
 */
export const TINY_GPT2_CONFIG: Gpt2LikeConfig = Object.freeze({
  vocabSize: 4096,
  nEmbd: 128,
  nLayer: 2,
  nHead: 2,
  nPositions: 1024,
  layerNormEps: 1e-5,
  seed: 42,
});

const POSITIVE_INTEGER_KEYS = ['vocabSize', 'nEmbd', 'nLayer', 'nHead', 'nPositions'] as const;

/**
 * Checks a config before any work starts, so a typo fails with the key's name
 * instead of as a shape error inside an inference engine. Returns the config
 * for chaining.
 */
export function validateGpt2Config(cfg: Gpt2LikeConfig): Gpt2LikeConfig {
  checkConfigBasics(cfg, 'Decoder config', { keys: POSITIVE_INTEGER_KEYS, defaults: TINY_GPT2_CONFIG }, { width: 'nEmbd', heads: 'nHead' }, '1e-5 (the GPT-2 default)');
  if (cfg.vocabSize < MIN_GPT2_VOCAB_SIZE) {
    throw new UserError(
      `Decoder config key vocabSize (${cfg.vocabSize}) is below ${MIN_GPT2_VOCAB_SIZE}, too small for the 256 byte tokens and <|endoftext|>.`,
      `Set vocabSize to at least ${MIN_GPT2_VOCAB_SIZE}; the default is ${TINY_GPT2_CONFIG.vocabSize}.`,
    );
  }
  return cfg;
}
