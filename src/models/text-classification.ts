import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { basename, isAbsolute, join, resolve } from 'node:path';
import { readModelJson, requireModelFolder } from './model-folder.js';
import { Tokenizer } from '@huggingface/tokenizers';
import { BenchmarkModel, type InputSpec } from './benchmark-model.js';
import { formatLabel } from '../core/model-formats.js';
import { UserError } from '../core/errors.js';
import { isHubName } from '../hub/hub-id.js';
import type { ModelInfo } from '../core/results.js';
import type { TensorMap } from '../core/tensor.js';
import type { Precision } from '../core/engine-session.js';
import { attachTexts } from '../core/raw-texts.js';
import { readOnnxSignature } from './onnx-signature.js';
import { nativeFormatsIn, readNativeSignature } from './native-signature.js';
import { checkNativeFolder } from './native-folder.js';
import { NATIVE_ENGINES, NATIVE_FILE, type NativeFormat } from './tf-export/native-formats.js';
import { CellSkip } from '../core/errors.js';
import type { DataRow } from '../../datasets/dataset.js';
import { textOf, type ResolvedColumns } from '../../datasets/columns.js';

/** Files a Hugging Face text-classification folder must have, relative to the folder. */
export const REQUIRED_MODEL_FILES = ['config.json', 'tokenizer.json', 'onnx/model.onnx'] as const;

interface HfConfig {
  readonly _name_or_path?: string;
  readonly model_type?: string;
  readonly id2label?: Record<string, string>;
  readonly max_position_embeddings?: number;
  readonly vocab_size?: number;
  readonly inferbench?: { readonly randomWeights?: boolean; readonly seed?: number };
}

interface TokenizerConfig {
  readonly model_max_length?: number;
  readonly pad_token?: string | { content: string };
}

/** Options of a TextClassification model. */
export interface TextClassificationOptions {
  /** Row name; default the folder's name or the Hub id. */
  readonly name?: string;
  /** Graph file relative to the folder; default `onnx/model.onnx` (a variant: `onnx/model_q4.onnx`). */
  readonly onnxFile?: string;
  /** Precision of that graph, for result rows; default fp32. */
  readonly precision?: Precision;
  /** Hub revision (branch, tag or commit) when `dirOrId` is a Hub id; default `main`. */
  readonly revision?: string;
  /** Files to fetch from the Hub besides config and tokenizer; default just `onnxFile`. */
  readonly onnxFiles?: readonly string[];
  /** Where the folder came from, for reports (e.g. `hub:org/name@main`); default the folder, or the Hub id. */
  readonly source?: string;
}

/** What reading a model folder gives; set once the folder exists locally. */
interface FolderContents {
  readonly dir: string;
  /** False for a folder that brings only a tfjs GraphModel or a SavedModel. */
  readonly hasOnnx: boolean;
  /** The tfjs formats the folder brings itself (model.json, saved_model.pb). */
  readonly nativeFormats: readonly NativeFormat[];
  readonly tokenizer: Tokenizer;
  readonly padId: number;
  readonly config: HfConfig;
  readonly labels: readonly string[];
  readonly maxLength: number;
}

/** True when `ref` is meant as a path (rather than a Hub id): absolute, relative with ./ or ../, or home-relative. */
export function looksLikePath(ref: string): boolean {
  return isAbsolute(ref) || /^(\.{1,2}|~)([\\/]|$)/.test(ref) || ref.includes('\\') || ref.endsWith('/');
}

/** A Hub model id: `name` (legacy canonical) or `org/name`, of the characters the Hub allows. */
export function isHubModelId(ref: string): boolean {
  return !looksLikePath(ref) && isHubName(ref);
}

/**
 * Characters of text kept per token of the model's maximum length before
 * tokenizing. Subword tokens of real text average 3–6 characters and a
 * whole-word token rarely passes 20, so the first maxLength tokens always
 * lie inside maxLength × 32 characters and the ids are unchanged; only the
 * tail that truncation would drop anyway is not tokenized.
 */
export const MAX_CHARS_PER_TOKEN = 32;

/** `text` cut to the characters that can hold its first `maxLength` tokens (see MAX_CHARS_PER_TOKEN). */
export function cutForTokens(text: string, maxLength: number): string {
  const bound = maxLength * MAX_CHARS_PER_TOKEN;
  return text.length > bound ? text.slice(0, bound) : text;
}

/**
 * Names every file a model folder lacks before anything in it is parsed, so a
 * folder missing tokenizer.json says so even when its graph is unreadable too.
 * Returns the tfjs formats the folder brings instead of, or beside, its graph.
 */
export function requireModelFiles(dir: string, onnxFile: string): NativeFormat[] {
  requireModelFolder(dir, 'pass --model a folder with config.json, tokenizer.json and onnx/model.onnx (or a tfjs model.json or a saved_model.pb), or a Hub id such as org/name');
  // A folder's own model.json or saved_model.pb is the fp32 model's; a precision variant's engines export from its ONNX file.
  const nativeFormats = onnxFile !== 'onnx/model.onnx' ? [] : nativeFormatsIn(dir);
  // A folder with a tfjs GraphModel or a SavedModel needs no ONNX graph.
  const required = REQUIRED_MODEL_FILES.filter((f) => f !== 'onnx/model.onnx' || nativeFormats.length === 0).map((f) => (f === 'onnx/model.onnx' ? onnxFile : f));
  const missing = required.filter((f) => !existsSync(join(dir, f)));
  if (missing.length > 0) {
    throw new UserError(
      `model folder ${dir} is missing ${missing.map((f) => join(dir, f)).join(', ')}${nativeFormats.length === 0 && missing.includes(onnxFile) ? ' (and has no tfjs model.json or saved_model.pb instead)' : ''}`,
      'export the model in Hugging Face layout, e.g. `optimum-cli export onnx --model <id> <dir>` and move model.onnx into <dir>/onnx/; a tfjs GraphModel (model.json) or a SavedModel (saved_model.pb) beside config.json and tokenizer.json works too',
    );
  }
  return nativeFormats;
}

function readFolder(dir: string, onnxFile: string): FolderContents {
  const nativeFormats = requireModelFiles(dir, onnxFile);
  const hasOnnx = existsSync(join(dir, onnxFile));
  const config = readModelJson<HfConfig>(join(dir, 'config.json'));
  const tokenizerJson = readModelJson<object>(join(dir, 'tokenizer.json'));
  const tokCfgPath = join(dir, 'tokenizer_config.json');
  const tokenizerConfig = existsSync(tokCfgPath) ? readModelJson<TokenizerConfig>(tokCfgPath) : {};
  let tokenizer: Tokenizer;
  try {
    tokenizer = new Tokenizer(tokenizerJson, tokenizerConfig);
  } catch (err) {
    // The tokenizers library throws a bare Error for JSON it cannot use ("Tokenizer must contain a "model" property").
    throw new UserError(`cannot read ${join(dir, 'tokenizer.json')} as a tokenizer: ${(err as Error).message}`, 'copy tokenizer.json and tokenizer_config.json again from the model (they must be the Hugging Face tokenizers format)');
  }
  const padToken = typeof tokenizerConfig.pad_token === 'string' ? tokenizerConfig.pad_token : tokenizerConfig.pad_token?.content;
  const padId = (padToken ? tokenizer.token_to_id(padToken) : undefined) ?? 0;
  const limits = [tokenizerConfig.model_max_length, config.max_position_embeddings].filter(
    (n): n is number => typeof n === 'number' && n > 0 && n < 1e6,
  );
  const id2label = config.id2label ?? {};
  const labels = Object.keys(id2label)
    .sort((a, b) => Number(a) - Number(b))
    .map((k) => id2label[k] ?? k);
  return { dir, hasOnnx, nativeFormats, tokenizer, padId, config, labels, maxLength: limits.length > 0 ? Math.min(...limits) : 512 };
}

/** Bytes of a native model's files: model.json and its shards, or saved_model.pb and variables/. */
function nativeFilesSize(dir: string, format: NativeFormat): number {
  const file = join(dir, NATIVE_FILE[format]);
  return statSync(file).size + WEIGHT_FILES[format](dir, file).reduce((sum, f) => sum + (existsSync(f) ? statSync(f).size : 0), 0);
}

/** Each format's weight files beside its graph file: a GraphModel's manifest shards, a SavedModel's variables/. */
const WEIGHT_FILES: Readonly<Record<NativeFormat, (dir: string, file: string) => string[]>> = {
  'graph-model': (dir, file) => ((JSON.parse(readFileSync(file, 'utf8')) as { weightsManifest?: { paths: string[] }[] }).weightsManifest ?? []).flatMap((g) => g.paths.map((p) => join(dir, p))),
  'saved-model': (dir) => (existsSync(join(dir, 'variables')) ? readdirSync(join(dir, 'variables')).map((f) => join(dir, 'variables', f)) : []),
};

/**
 * A sequence classifier in the Hugging Face folder layout (config.json,
 * tokenizer.json, tokenizer_config.json, onnx/model.onnx), tokenized with
 * the model's own tokenizer. Batches are padded to their longest text and
 * truncated to the model's maximum length, as transformers does.
 *
 * `dirOrId` is a local folder or a Hub id (`org/name`); a Hub model is
 * downloaded into the Hugging Face cache by `init()`, which the benchmark
 * awaits before the first batch.
 */
export class TextClassification extends BenchmarkModel {
  readonly name: string;
  /** Filled by `init()` from the ONNX file; empty before. */
  inputs: InputSpec[] = [];
  override readonly precision: Precision;
  /** Graph file relative to the folder. */
  readonly onnxFile: string;
  /** The Hub id when the model comes from the Hub, else null. */
  readonly hubId: string | null;
  readonly revision: string | null;
  private folder: FolderContents | null = null;
  private readonly source: string | undefined;
  private readonly hubFiles: readonly string[];
  private initialised = false;

  constructor(dirOrId: string, options: TextClassificationOptions = {}) {
    super();
    this.onnxFile = options.onnxFile ?? 'onnx/model.onnx';
    this.precision = options.precision ?? 'fp32';
    this.hubFiles = options.onnxFiles ?? [this.onnxFile];
    this.source = options.source;
    const local = resolve(dirOrId);
    if (!looksLikePath(dirOrId) && !existsSync(local) && isHubModelId(dirOrId)) {
      this.hubId = dirOrId;
      this.revision = options.revision ?? 'main';
      this.name = options.name ?? dirOrId;
      return;
    }
    this.hubId = null;
    this.revision = null;
    this.folder = readFolder(local, this.onnxFile);
    this.name = options.name ?? basename(local);
  }

  private get contents(): FolderContents {
    if (!this.folder) throw new Error(`TextClassification ${this.name}: init() must be awaited before use (the Hub model is not downloaded yet)`);
    return this.folder;
  }

  /** The local model folder (for a Hub model, its snapshot folder once `init()` ran). */
  get dir(): string {
    return this.contents.dir;
  }

  get labels(): readonly string[] {
    return this.contents.labels;
  }

  get maxLength(): number {
    return this.contents.maxLength;
  }

  /** Rows of the word embedding (`vocab_size` of config.json), else the tokenizer's vocabulary size. */
  get vocabSize(): number {
    const fromConfig = this.contents.config.vocab_size;
    return typeof fromConfig === 'number' && fromConfig > 0 ? fromConfig : this.contents.tokenizer.get_vocab().size;
  }

  /** Downloads a Hub model (once), then reads the graph signature; called by the benchmark before the first batch. */
  async init(): Promise<this> {
    if (this.initialised) return this;
    if (!this.folder && this.hubId) {
      const { downloadModel } = await import('../hub/model-download.js');
      const dir = await downloadModel(this.hubId, { revision: this.revision ?? 'main', onnxFiles: this.hubFiles });
      this.folder = readFolder(dir, this.onnxFile);
    }
    const { hasOnnx, nativeFormats, dir } = this.contents;
    // Every format the folder brings is checked before any engine opens it (a short shard, a SavedModel without variables/).
    for (const format of nativeFormats) checkNativeFolder(dir, format);
    this.inputs = hasOnnx ? (await readOnnxSignature(this.onnxPath())).inputs : [...(await readNativeSignature(dir, nativeFormats[0] as NativeFormat)).inputs];
    this.initialised = true;
    return this;
  }

  /** The tfjs formats the folder brings itself; an engine of another format gets a CellSkip with the reason. */
  get nativeFormats(): readonly NativeFormat[] {
    return this.contents.nativeFormats;
  }

  override nativeModelPath(format: NativeFormat): string | null {
    const { hasOnnx, nativeFormats, dir } = this.contents;
    if (nativeFormats.includes(format)) return join(dir, NATIVE_FILE[format]);
    if (hasOnnx) return null;
    throw new CellSkip(`${this.name} has no ${formatLabel(format)} and no ONNX graph to export one from (${dir} holds a ${nativeFormats.map((f) => formatLabel(f)).join(' and a ')})`);
  }

  /** Lets an isolated child process re-create this model (and graph variant) from its folder. */
  isolationSpec(): { kind: 'text-classification'; dir: string; name: string; onnxFile: string; precision: Precision; source?: string } {
    return {
      kind: 'text-classification',
      dir: this.dir,
      name: this.name,
      onnxFile: this.onnxFile,
      precision: this.precision,
      ...(this.source !== undefined ? { source: this.source } : {}),
    };
  }

  /** The ONNX graph; a folder that brings only tfjs formats has none, and the engines that need one skip with the reason. */
  onnxPath(): string {
    const { hasOnnx, nativeFormats, dir } = this.contents;
    if (!hasOnnx) {
      const engines = nativeFormats.map((f) => NATIVE_ENGINES[f]).join(' and ');
      throw new CellSkip(`${this.name} has no ONNX graph: ${dir} holds only a ${nativeFormats.map((f) => formatLabel(f)).join(' and a ')}, which ${engines} run`);
    }
    return join(dir, this.onnxFile);
  }

  /** True when the folder was generated by inferbench with random weights. */
  get randomWeights(): boolean {
    return this.contents.config.inferbench?.randomWeights === true;
  }

  /** Size on disk counts the graph file and its external-data file (`model.onnx_data`), or a native folder's graph and weight files. */
  override async info(): Promise<ModelInfo> {
    const { hasOnnx, nativeFormats, dir } = this.contents;
    const base = hasOnnx ? await super.info() : { name: this.name, source: dir, sizeBytes: nativeFilesSize(dir, nativeFormats[0] as NativeFormat), notes: [] };
    const external = hasOnnx ? `${this.onnxPath()}_data` : '';
    const sizeBytes = base.sizeBytes + (hasOnnx && existsSync(external) ? statSync(external).size : 0);
    const notes = this.randomWeights
      ? ['weights are seeded random (generated by inferbench): speed is real, labels are meaningless']
      : [];
    const source = this.source ?? (this.hubId ? `hub:${this.hubId}@${this.revision ?? 'main'}` : this.dir);
    return { ...base, sizeBytes, source, notes };
  }

  /**
   * Token ids of one text, truncated to maxLength keeping the final special
   * token. The text is cut to maxLength × MAX_CHARS_PER_TOKEN characters
   * first: only the first maxLength tokens are kept, and tokenizing a 1 MB
   * row in full took seconds per batch for ids that were thrown away.
   */
  encode(text: string): { ids: number[]; typeIds: number[] } {
    const enc = this.contents.tokenizer.encode(cutForTokens(text, this.maxLength), { return_token_type_ids: true });
    let ids = enc.ids;
    let typeIds = enc.token_type_ids ?? new Array<number>(ids.length).fill(0);
    if (ids.length > this.maxLength) {
      const last = ids[ids.length - 1] as number;
      ids = [...ids.slice(0, this.maxLength - 1), last];
      typeIds = typeIds.slice(0, this.maxLength);
    }
    return { ids, typeIds };
  }

  prepareBatch(rows: readonly DataRow[], columns: ResolvedColumns): TensorMap {
    const texts = rows.map((r) => textOf(r, columns.text));
    return attachTexts(this.tokenizeTexts(texts), texts);
  }

  /** Tokenizes and pads texts into the graph's int64 inputs. */
  tokenizeTexts(texts: readonly string[]): TensorMap {
    if (this.inputs.length === 0) throw new Error('TextClassification.init() must be awaited before prepareBatch');
    const encoded = texts.map((t) => this.encode(t));
    const batch = encoded.length;
    const seq = Math.max(1, ...encoded.map((e) => e.ids.length));
    const ids = new BigInt64Array(batch * seq).fill(BigInt(this.contents.padId));
    const mask = new BigInt64Array(batch * seq);
    const types = new BigInt64Array(batch * seq);
    encoded.forEach((e, b) => {
      for (let i = 0; i < e.ids.length; i++) {
        ids[b * seq + i] = BigInt(e.ids[i] as number);
        mask[b * seq + i] = 1n;
        types[b * seq + i] = BigInt(e.typeIds[i] ?? 0);
      }
    });
    const byName: Record<string, BigInt64Array> = { input_ids: ids, attention_mask: mask, token_type_ids: types };
    const out: TensorMap = {};
    for (const spec of this.inputs) {
      const data = byName[spec.name];
      if (!data) throw new UserError(`model input "${spec.name}" is not one TextClassification can fill`, 'subclass BenchmarkModel and build this input in prepareBatch');
      out[spec.name] = spec.dtype === 'int32'
        ? { dtype: 'int32', dims: [batch, seq], data: Int32Array.from(data, Number) }
        : { dtype: 'int64', dims: [batch, seq], data };
    }
    return out;
  }
}
