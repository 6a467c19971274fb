/**
 * A sentence-transformers folder read whole and checked before any engine
 * loads: `modules.json` and each module it lists, the Pooling module's
 * `config.json`, `sentence_bert_config.json` (`max_seq_length`,
 * `do_lower_case`) and the Normalize module. A malformed file is a
 * UserError naming the file and the field, never a silent change of what
 * the model computes (a Pooling folder that is not found used to run as
 * mean pooling). The same reading lists every file a copy of the model
 * must carry (export, quantized variants), so a copy pools as its source.
 */
import { existsSync, lstatSync, readdirSync, statSync } from 'node:fs';
import { isAbsolute, join, normalize, relative, sep } from 'node:path';
import { UserError } from '../core/errors.js';
import { readModelJson, readModelJsonValue } from './model-folder.js';
import { parsePoolingConfig, type PoolingSpec } from './pooling.js';

/** What a sentence-transformers folder declares besides the graph. */
export interface SentenceTransformersFolder {
  readonly pooling: PoolingSpec;
  /** `max_seq_length` of sentence_bert_config.json: the truncation length sentence-transformers uses; null when not given. */
  readonly maxSeqLength: number | null;
  /** `do_lower_case` of sentence_bert_config.json: texts are lower-cased before tokenizing; false when not given. */
  readonly doLowerCase: boolean;
  /** Every sentence-transformers file below the folder's top level (module folders), relative to it: what a copy must carry besides the top-level files. */
  readonly moduleFiles: readonly string[];
  /** Module folders to create in a copy even when empty (a Normalize folder). */
  readonly moduleFolders: readonly string[];
}

/** The model's sizes the files are checked against (config.json); a size the config does not give is not checked. */
export interface ModelShape {
  readonly hiddenSize: number | null;
  readonly maxPositions: number | null;
}

/** Module types inferbench computes; any other (Dense, LayerNorm, …) is refused rather than left out of the vectors. */
const MODULE_KINDS = ['Transformer', 'Pooling', 'Normalize'] as const;
type ModuleKind = (typeof MODULE_KINDS)[number];

const FIX = 'check the model folder against the sentence-transformers model it came from (save it again with SentenceTransformer.save, or download it again)';

/**
 * Whether a sentence-transformers file is there. A link that leads nowhere
 * is refused, not taken for an absent file: an absent modules.json means a
 * bare transformer, so reading a broken one as absent dropped Normalize.
 */
function present(path: string): boolean {
  if (existsSync(path)) return true;
  if (lstatSync(path, { throwIfNoEntry: false })?.isSymbolicLink()) throw new UserError(`${path} is a symbolic link to nothing`, FIX);
  return false;
}

function positiveInt(value: unknown): value is number {
  return typeof value === 'number' && Number.isInteger(value) && value > 0;
}

/** hidden_size and max_position_embeddings of config.json (and their GPT-2 / DistilBERT spellings). */
export function modelShape(config: Readonly<Record<string, unknown>>): ModelShape {
  const first = (...keys: string[]): number | null => {
    for (const k of keys) if (positiveInt(config[k])) return config[k];
    return null;
  };
  return { hiddenSize: first('hidden_size', 'd_model', 'dim', 'n_embd'), maxPositions: first('max_position_embeddings', 'n_positions') };
}

function shapeOf(dir: string): ModelShape {
  const path = join(dir, 'config.json');
  return existsSync(path) ? modelShape(readModelJson<Record<string, unknown>>(path)) : { hiddenSize: null, maxPositions: null };
}

/** True when the folder has sentence-transformers' own files. */
export function hasSentenceTransformersFiles(dir: string): boolean {
  return ['modules.json', join('1_Pooling', 'config.json'), 'sentence_bert_config.json'].some((f) => lstatSync(join(dir, f), { throwIfNoEntry: false }) !== undefined);
}

interface Module {
  readonly kind: ModuleKind;
  readonly path: string;
}

/** The modules of modules.json, each checked: an object with a known `type` and a `path` inside the folder that exists (Normalize's may be absent: it has no files, and the Hub keeps no empty folders). */
function readModules(dir: string): Module[] | null {
  const file = join(dir, 'modules.json');
  if (!present(file)) return null;
  const value = readModelJsonValue(file);
  if (!Array.isArray(value)) throw new UserError(`${file} is not a list of modules`, 'write modules.json as sentence-transformers does: [{"idx":0,"name":"0","path":"","type":"sentence_transformers.models.Transformer"}, ...]');
  return value.map((entry: unknown, i) => {
    const at = `${file}: module ${i}`;
    if (typeof entry !== 'object' || entry === null || Array.isArray(entry)) throw new UserError(`${at} is not an object`, FIX);
    const { type, path } = entry as { type?: unknown; path?: unknown };
    if (typeof type !== 'string') throw new UserError(`${at} has no "type" string`, FIX);
    const kind = MODULE_KINDS.find((k) => type === k || type.endsWith(`.${k}`));
    if (kind === undefined) throw new UserError(`${at} is a ${type} ("type"), which inferbench does not compute (it computes ${MODULE_KINDS.join(', ')})`, 'benchmark the model without that module, or export a graph that includes it and remove it from modules.json');
    if (typeof path !== 'string') throw new UserError(`${at} (${kind}) has no "path" string`, FIX);
    const rel = normalize(path === '' ? '.' : path);
    if (isAbsolute(path) || rel === '..' || rel.startsWith(`..${sep}`)) throw new UserError(`${at} (${kind}) has "path" ${JSON.stringify(path)}, which leads out of the model folder`, FIX);
    const full = join(dir, rel);
    const present = existsSync(full);
    if (present && !statSync(full).isDirectory()) throw new UserError(`${at} (${kind}) has "path" ${JSON.stringify(path)}, which is a file, not a module folder`, FIX);
    if (!present && kind !== 'Normalize') throw new UserError(`${at} (${kind}) has "path" ${JSON.stringify(path)}, which does not exist in ${dir}`, FIX);
    return { kind, path: rel === '.' ? '' : relative(dir, full) };
  });
}

/** The pooling modes of a Pooling module's config.json, its word_embedding_dimension checked against the model's hidden size. */
function readPoolingModule(file: string, shape: ModelShape): PoolingSpec['modes'] {
  const config = readModelJson<Record<string, unknown>>(file);
  const dim = config['word_embedding_dimension'];
  if (dim !== undefined) {
    if (!positiveInt(dim)) throw new UserError(`${file}: "word_embedding_dimension" is ${JSON.stringify(dim)}, not a positive integer`, FIX);
    if (shape.hiddenSize !== null && dim !== shape.hiddenSize) {
      throw new UserError(`${file}: "word_embedding_dimension" is ${dim}, but the model's hidden size (config.json) is ${shape.hiddenSize}`, `set "word_embedding_dimension": ${shape.hiddenSize}, or use the Pooling module saved with this model`);
    }
  }
  return parsePoolingConfig(config, file);
}

function readBertConfig(file: string, shape: ModelShape): { maxSeqLength: number | null; doLowerCase: boolean } {
  if (!present(file)) return { maxSeqLength: null, doLowerCase: false };
  const config = readModelJson<Record<string, unknown>>(file);
  const max = config['max_seq_length'];
  let maxSeqLength: number | null = null;
  if (max !== undefined && max !== null) {
    if (!positiveInt(max)) throw new UserError(`${file}: "max_seq_length" is ${JSON.stringify(max)}, not a positive integer`, 'set "max_seq_length" to the number of tokens sentence-transformers truncates to, e.g. 256');
    if (shape.maxPositions !== null && max > shape.maxPositions) {
      throw new UserError(`${file}: "max_seq_length" is ${max}, more than the model's ${shape.maxPositions} positions (max_position_embeddings in config.json)`, `set "max_seq_length" to ${shape.maxPositions} or less`);
    }
    maxSeqLength = max;
  }
  const lower = config['do_lower_case'];
  if (lower !== undefined && lower !== null && typeof lower !== 'boolean') throw new UserError(`${file}: "do_lower_case" is ${JSON.stringify(lower)}, not true or false`, FIX);
  return { maxSeqLength, doLowerCase: lower === true };
}

/** Files under `dir/sub`, relative to `dir`, depth first. */
function filesUnder(dir: string, sub: string): string[] {
  const full = join(dir, sub);
  if (!existsSync(full)) return [];
  return readdirSync(full, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? filesUnder(dir, join(sub, e.name)) : statSync(join(full, e.name)).isFile() ? [join(sub, e.name)] : []));
}

/**
 * Reads and checks the sentence-transformers files of `dir` (see the file
 * comment). A folder with none of them pools by mean over the attention
 * mask without normalisation, as sentence-transformers does for a bare
 * transformer. `shape` defaults to the folder's config.json.
 */
export function readSentenceTransformersFolder(dir: string, shape: ModelShape = shapeOf(dir)): SentenceTransformersFolder {
  const modules = readModules(dir);
  const pooling = modules?.find((m) => m.kind === 'Pooling');
  const transformer = modules?.find((m) => m.kind === 'Transformer');
  const poolingPath = pooling?.path ?? '1_Pooling';
  const poolingFile = join(dir, poolingPath, 'config.json');
  const hasPooling = present(poolingFile);
  if (pooling !== undefined && !hasPooling) throw new UserError(`${join(dir, 'modules.json')} lists a Pooling module at ${JSON.stringify(pooling.path)}, but ${poolingFile} does not exist`, FIX);
  const modes = hasPooling ? readPoolingModule(poolingFile, shape) : (['mean'] as const);
  const normalize = modules?.some((m) => m.kind === 'Normalize') ?? false;
  const bert = readBertConfig(join(dir, transformer?.path ?? '', 'sentence_bert_config.json'), shape);
  // A Transformer module's own folder holds the weights, which the graph replaces: only its sentence_bert_config.json is carried.
  const folders = [...new Set([...(modules ?? []).filter((m) => m.kind !== 'Transformer').map((m) => m.path), ...(existsSync(poolingFile) ? [poolingPath] : [])])];
  const transformerFiles = transformer !== undefined && transformer.path !== '' ? [join(transformer.path, 'sentence_bert_config.json')].filter((f) => existsSync(join(dir, f))) : [];
  return {
    pooling: { modes: [...modes], normalize },
    ...bert,
    moduleFiles: [...transformerFiles, ...folders.flatMap((f) => filesUnder(dir, f))],
    moduleFolders: [...(transformerFiles.length > 0 && transformer ? [transformer.path] : []), ...folders.filter((f) => existsSync(join(dir, f)))],
  };
}
