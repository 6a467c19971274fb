/**
 * Materializes the generated default model as a Hugging Face model folder,
 * so every consumer (inferbench's engines, transformers.js, Python
 * transformers/optimum) loads it exactly like a downloaded checkpoint.
 * Generation is cached by content: a folder's name carries the hash of
 * everything that determines its bytes.
 */
import { createHash } from 'node:crypto';
import { access, mkdir, mkdtemp, rename, rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { validateBertConfig, type BertLikeConfig } from './bert-config.js';
import { BERT_GRAPH_VERSION, buildBertOnnx, INITIALIZER_RANGE } from './bert-graph.js';
import { buildTokenizerConfig, buildTokenizerJson, buildWordPieceVocab } from './wordpiece.js';
import { hasErrorCode, UserError } from '../../core/errors.js';
import { cacheFolder, defaultCacheRoot } from '../../core/cache-root.js';

/** Folder name prefix when the caller gives none. */
export const DEFAULT_MODEL_NAME = 'tiny-bert-sentiment';

export interface GenerateModelOptions {
  /** Texts the WordPiece vocabulary is fitted to, normally the benchmark dataset. */
  readonly texts: Iterable<string>;
  /** Cache root instead of `defaultCacheRoot()`; the model goes under `<cacheDir>/models/`. */
  readonly cacheDir?: string;
  /** Folder name prefix, [A-Za-z0-9._-]; default DEFAULT_MODEL_NAME. */
  readonly name?: string;
  /**
   * Pad the fitted vocabulary with `[unusedN]` tokens (as BERT's own vocab
   * has) up to `config.vocabSize`, so the embedding has the configured size.
   */
  readonly padVocabulary?: boolean;
}

/** Where inferbench keeps generated files (see core/cache-root.ts); re-exported for the modules that import it from here. */
export { defaultCacheRoot } from '../../core/cache-root.js';

/** Hugging Face `config.json` of the generated model, plus the `inferbench` provenance block reports show. */
function configJson(cfg: BertLikeConfig, configHash: string): Record<string, unknown> {
  if (cfg.task === 'feature-extraction') {
    // A bare encoder has no head: no id2label, which is how the task is detected (models/text-task.ts).
    const { architectures: _a, id2label: _i, label2id: _l, problem_type: _p, classifier_dropout: _c, ...rest } = classifierConfigJson(cfg, configHash);
    return { architectures: ['BertModel'], ...rest };
  }
  return classifierConfigJson(cfg, configHash);
}

/** sentence-transformers' files of a generated feature-extraction model: mean pooling, then L2 normalisation (all-MiniLM-L6-v2's modules). */
function sentenceTransformersFiles(cfg: BertLikeConfig): Record<string, string> {
  if (cfg.task !== 'feature-extraction') return {};
  return {
    'modules.json': jsonFile([
      { idx: 0, name: '0', path: '', type: 'sentence_transformers.models.Transformer' },
      { idx: 1, name: '1', path: '1_Pooling', type: 'sentence_transformers.models.Pooling' },
      { idx: 2, name: '2', path: '2_Normalize', type: 'sentence_transformers.models.Normalize' },
    ]),
    [join('1_Pooling', 'config.json')]: jsonFile({
      word_embedding_dimension: cfg.hiddenSize,
      pooling_mode_cls_token: false,
      pooling_mode_mean_tokens: true,
      pooling_mode_max_tokens: false,
      pooling_mode_mean_sqrt_len_tokens: false,
      pooling_mode_weightedmean_tokens: false,
      pooling_mode_lasttoken: false,
      include_prompt: true,
    }),
    'sentence_bert_config.json': jsonFile({ max_seq_length: cfg.maxPositions, do_lower_case: false }),
  };
}

function classifierConfigJson(cfg: BertLikeConfig, configHash: string): Record<string, unknown> {
  const id2label: Record<string, string> = {};
  const label2id: Record<string, number> = {};
  for (let i = 0; i < cfg.numLabels; i++) {
    const label = cfg.id2label[i] as string;
    id2label[String(i)] = label;
    label2id[label] = i;
  }
  return {
    architectures: ['BertForSequenceClassification'],
    attention_probs_dropout_prob: 0.1,
    classifier_dropout: null,
    hidden_act: 'gelu',
    hidden_dropout_prob: 0.1,
    hidden_size: cfg.hiddenSize,
    id2label,
    initializer_range: INITIALIZER_RANGE,
    intermediate_size: cfg.intermediateSize,
    label2id,
    layer_norm_eps: cfg.layerNormEps,
    max_position_embeddings: cfg.maxPositions,
    model_type: 'bert',
    num_attention_heads: cfg.numHeads,
    num_hidden_layers: cfg.numLayers,
    pad_token_id: 0,
    position_embedding_type: 'absolute',
    problem_type: 'single_label_classification',
    type_vocab_size: cfg.typeVocabSize,
    vocab_size: cfg.vocabSize,
    inferbench: { generated: true, randomWeights: true, seed: cfg.seed, configHash },
  };
}

/** JSON with keys in a fixed order (ids of id2label sorted), so the hash is independent of how the caller built the object. */
function canonicalConfig(cfg: BertLikeConfig): string {
  const labels = Array.from({ length: cfg.numLabels }, (_, i) => cfg.id2label[i]);
  return JSON.stringify([
    cfg.vocabSize, cfg.hiddenSize, cfg.numLayers, cfg.numHeads, cfg.intermediateSize,
    cfg.maxPositions, cfg.typeVocabSize, cfg.numLabels, labels, cfg.layerNormEps, cfg.seed,
    // Only when set, so the classifiers' hashes (and cached folders) are unchanged.
    ...(cfg.task ? [cfg.task] : []),
  ]);
}

/** Short content hash of everything that determines the folder's bytes. */
function modelHash(cfg: BertLikeConfig, vocab: readonly string[]): string {
  return createHash('sha256')
    .update(`bert-graph-${BERT_GRAPH_VERSION}\n`)
    .update(canonicalConfig(cfg))
    .update('\n')
    .update(vocab.join('\n'))
    .digest('hex')
    .slice(0, 12);
}

/** True when `path` exists; cache lookups treat any access error as absent. */
export async function exists(path: string): Promise<boolean> {
  try {
    await access(path);
    return true;
  } catch {
    return false;
  }
}

/** Checks a generated model's folder-name prefix, which users may choose. */
export function checkModelName(name: string, example: string): void {
  if (!/^[A-Za-z0-9][A-Za-z0-9._-]*$/.test(name)) {
    throw new UserError(
      `Generated model name ${JSON.stringify(name)} is not a plain folder name.`,
      `Use letters, digits, dot, underscore and dash only, e.g. ${example}.`,
    );
  }
}

/** A generated model folder, described by where it goes and how to produce its files. */
export interface CachedFolderSpec {
  /** Cache root; the folder goes under `<cacheRoot>/models/`. */
  readonly cacheRoot: string;
  /** `<name>-<hash>` is the folder name; the hash covers everything that decides the bytes. */
  readonly name: string;
  readonly hash: string;
  /** File that, once present, proves the folder complete (it is written last, then the folder is renamed into place). */
  readonly marker: string;
  /** Relative path to contents, produced only when the folder is not cached yet. */
  readonly files: () => Record<string, string | Uint8Array>;
}

/**
 * Returns `<cacheRoot>/models/<name>-<hash>`, writing it first when absent.
 * The folder is written under a temporary name and renamed into place, so a
 * crash or a concurrent run never leaves a half-written folder that a later
 * run would take as complete. Shared by every model inferbench generates.
 */
export async function ensureCachedFolder(spec: CachedFolderSpec): Promise<string> {
  const target = join(spec.cacheRoot, 'models', `${spec.name}-${spec.hash}`);
  if (await exists(join(target, spec.marker))) return target;
  const modelsDir = await cacheFolder(spec.cacheRoot, 'models');
  const temp = await mkdtemp(join(modelsDir, `.${spec.name}-${spec.hash}.partial-`));
  try {
    for (const [relative, data] of Object.entries(spec.files())) {
      await mkdir(dirname(join(temp, relative)), { recursive: true });
      await writeFile(join(temp, relative), data);
    }
    try {
      await rename(temp, target);
    } catch (err) {
      // Another process finished first: its folder has the same content.
      if (!(hasErrorCode(err, 'ENOTEMPTY') || hasErrorCode(err, 'EEXIST')) || !(await exists(join(target, spec.marker)))) {
        throw err;
      }
    }
  } catch (err) {
    if (hasErrorCode(err, 'ENOSPC') || hasErrorCode(err, 'EACCES') || hasErrorCode(err, 'EROFS')) {
      throw new UserError(
        `Cannot write the generated model under ${modelsDir}: ${(err as Error).message}`,
        'Free disk space or set INFERBENCH_CACHE to a writable folder.',
      );
    }
    throw err;
  } finally {
    await rm(temp, { recursive: true, force: true });
  }
  return target;
}

/** Pretty JSON with a final newline, as every generated JSON file is written. */
export function jsonFile(value: unknown): string {
  return `${JSON.stringify(value, null, 2)}\n`;
}

/**
 * Returns the folder of the generated model for `config` and `texts`,
 * generating it on first use (see `ensureCachedFolder`).
 */
export async function ensureGeneratedModel(config: BertLikeConfig, options: GenerateModelOptions): Promise<string> {
  validateBertConfig(config);
  const name = options.name ?? DEFAULT_MODEL_NAME;
  checkModelName(name, DEFAULT_MODEL_NAME);
  const vocab = buildWordPieceVocab(options.texts, config.vocabSize);
  if (vocab.length <= 5) {
    throw new UserError(
      'Cannot build the default model: the texts given for its vocabulary contain no words.',
      'Pass a dataset with non-empty texts.',
    );
  }
  if (options.padVocabulary) for (let i = 0; vocab.length < config.vocabSize; i++) vocab.push(`[unused${i}]`);
  const resolved: BertLikeConfig = { ...config, vocabSize: vocab.length };
  const hash = modelHash(resolved, vocab);
  return ensureCachedFolder({
    cacheRoot: options.cacheDir ?? defaultCacheRoot(),
    name,
    hash,
    // model.onnx is written last: its presence means the folder is complete.
    marker: join('onnx', 'model.onnx'),
    files: () => ({
      'config.json': jsonFile(configJson(resolved, hash)),
      'tokenizer.json': jsonFile(buildTokenizerJson(vocab)),
      'tokenizer_config.json': jsonFile(buildTokenizerConfig(vocab, resolved.maxPositions)),
      ...sentenceTransformersFiles(resolved),
      [join('onnx', 'model.onnx')]: buildBertOnnx(resolved),
    }),
  });
}
