/**
 * Architecture of the text-generation model inferbench generates when the
 * user brings none. Field names mirror Hugging Face's `GPT2Config`
 * (camelCased: `n_embd` is `nEmbd`) so the written `config.json` reads like
 * any GPT-2 checkpoint's.
 */
import { UserError } from '../../core/errors.js';

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
  const record = cfg as unknown as Record<string, unknown>;
  for (const key of POSITIVE_INTEGER_KEYS) {
    const v = record[key];
    if (typeof v !== 'number' || !Number.isSafeInteger(v) || v <= 0) {
      throw new UserError(
        `Decoder config key ${key} must be a positive integer, got ${JSON.stringify(v)}.`,
        `Set ${key} to a whole number greater than 0 (default ${TINY_GPT2_CONFIG[key]}).`,
      );
    }
  }
  if (cfg.nEmbd % cfg.nHead !== 0) {
    throw new UserError(
      `Decoder config key nEmbd (${cfg.nEmbd}) must be divisible by nHead (${cfg.nHead}).`,
      'Choose nHead among the divisors of nEmbd, or change nEmbd.',
    );
  }
  if (cfg.vocabSize < MIN_GPT2_VOCAB_SIZE) {
    throw new UserError(
      `Decoder config key vocabSize (${cfg.vocabSize}) is below ${MIN_GPT2_VOCAB_SIZE}, too small for the 256 byte tokens and <|endoftext|>.`,
      `Set vocabSize to at least ${MIN_GPT2_VOCAB_SIZE}; the default is ${TINY_GPT2_CONFIG.vocabSize}.`,
    );
  }
  if (typeof cfg.layerNormEps !== 'number' || !Number.isFinite(cfg.layerNormEps) || cfg.layerNormEps <= 0) {
    throw new UserError(
      `Decoder config key layerNormEps must be a small positive number, got ${JSON.stringify(cfg.layerNormEps)}.`,
      'Set layerNormEps to e.g. 1e-5 (the GPT-2 default).',
    );
  }
  if (typeof cfg.seed !== 'number' || !Number.isInteger(cfg.seed) || cfg.seed < 0 || cfg.seed > 0xffffffff) {
    throw new UserError(
      `Decoder config key seed must be an integer from 0 to 4294967295, got ${JSON.stringify(cfg.seed)}.`,
      'Set seed to a whole number such as 42.',
    );
  }
  return cfg;
}
