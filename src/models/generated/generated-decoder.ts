/**
 * Materializes the generated default decoder as a Hugging Face model folder
 * (config.json, generation_config.json, tokenizer files, onnx/model.onnx), so
 * transformers.js's `AutoModelForCausalLM` and inferbench's own engines open
 * it exactly like a downloaded GPT-2 export. Cached by content hash like the
 * default classifier.
 */
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { buildByteBpeTokenizerConfig, buildByteBpeTokenizerJson, END_OF_TEXT, trainByteBpe, type ByteBpeModel } from './byte-bpe.js';
import { validateGpt2Config, type Gpt2LikeConfig } from './gpt2-config.js';
import { buildGpt2Onnx, GPT2_GRAPH_VERSION } from './gpt2-graph.js';
import { INITIALIZER_RANGE } from './graph-writer.js';
import { checkModelName, defaultCacheRoot, ensureCachedFolder, jsonFile } from './generated-model.js';
import { UserError } from '../../core/errors.js';

/** Folder name prefix when the caller gives none. */
export const DEFAULT_DECODER_NAME = 'tiny-gpt2';

export interface GenerateDecoderOptions {
  /** Texts the byte-level BPE is trained on, normally the benchmark dataset. */
  readonly texts: Iterable<string>;
  /** Cache root instead of `defaultCacheRoot()`; the model goes under `<cacheDir>/models/`. */
  readonly cacheDir?: string;
  /** Folder name prefix, [A-Za-z0-9._-]; default DEFAULT_DECODER_NAME. */
  readonly name?: string;
}

/** Hugging Face `config.json` of a GPT-2 checkpoint, plus the `inferbench` provenance block reports show. */
function configJson(cfg: Gpt2LikeConfig, eos: number, configHash: string): Record<string, unknown> {
  return {
    activation_function: 'gelu_new',
    architectures: ['GPT2LMHeadModel'],
    attn_pdrop: 0.1,
    bos_token_id: eos,
    embd_pdrop: 0.1,
    eos_token_id: eos,
    initializer_range: INITIALIZER_RANGE,
    layer_norm_epsilon: cfg.layerNormEps,
    model_type: 'gpt2',
    n_ctx: cfg.nPositions,
    n_embd: cfg.nEmbd,
    n_head: cfg.nHead,
    n_inner: null,
    n_layer: cfg.nLayer,
    n_positions: cfg.nPositions,
    resid_pdrop: 0.1,
    tie_word_embeddings: true,
    use_cache: true,
    vocab_size: cfg.vocabSize,
    inferbench: { generated: true, randomWeights: true, seed: cfg.seed, configHash },
  };
}

function decoderHash(cfg: Gpt2LikeConfig, model: ByteBpeModel): string {
  return createHash('sha256')
    .update(`gpt2-graph-${GPT2_GRAPH_VERSION}\n`)
    .update(JSON.stringify([cfg.vocabSize, cfg.nEmbd, cfg.nLayer, cfg.nHead, cfg.nPositions, cfg.layerNormEps, cfg.seed]))
    .update('\n')
    .update(model.vocab.join('\n'))
    .update('\n')
    .update(model.merges.map(([a, b]) => `${a} ${b}`).join('\n'))
    .digest('hex')
    .slice(0, 12);
}

/**
 * Returns the folder of the generated decoder for `config` and `texts`,
 * generating it on first use.
 */
export async function ensureGeneratedDecoder(config: Gpt2LikeConfig, options: GenerateDecoderOptions): Promise<string> {
  validateGpt2Config(config);
  const name = options.name ?? DEFAULT_DECODER_NAME;
  checkModelName(name, DEFAULT_DECODER_NAME);
  const bpe = trainByteBpe(options.texts, config.vocabSize);
  if (bpe.merges.length === 0) {
    throw new UserError(
      'Cannot build the default decoder: the texts given for its tokenizer repeat no pair of bytes.',
      'Pass a dataset with more (and non-empty) texts.',
    );
  }
  const resolved: Gpt2LikeConfig = { ...config, vocabSize: bpe.vocab.length };
  const eos = bpe.vocab.indexOf(END_OF_TEXT);
  const hash = decoderHash(resolved, bpe);
  const onnxFile = join('onnx', 'model.onnx');
  return ensureCachedFolder({
    cacheRoot: options.cacheDir ?? defaultCacheRoot(),
    name,
    hash,
    marker: onnxFile,
    files: () => ({
      'config.json': jsonFile(configJson(resolved, eos, hash)),
      'generation_config.json': jsonFile({ bos_token_id: eos, eos_token_id: eos }),
      'tokenizer.json': jsonFile(buildByteBpeTokenizerJson(bpe)),
      'tokenizer_config.json': jsonFile(buildByteBpeTokenizerConfig(bpe, resolved.nPositions)),
      [onnxFile]: buildGpt2Onnx(resolved),
    }),
  });
}
