import { existsSync, statSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { Tokenizer } from '@huggingface/tokenizers';
import { BenchmarkModel, openOn, type ExportOptions, type InputSpec } from './benchmark-model.js';
import type { EngineGenerator } from '../core/engine.js';
import { standaloneRegistry } from './standalone-registry.js';
import { readModelJson, requireModelFolder } from './model-folder.js';
import { readOnnxSignature } from './onnx-signature.js';
import type { ModelInfo } from '../core/results.js';
import type { EngineSession } from '../core/engine-session.js';
import type { TensorMap } from '../core/tensor.js';
import type { DataRow } from '../../datasets/dataset.js';
import { textOf, type ResolvedColumns } from '../../datasets/columns.js';
import type { GenerateArgs } from '../core/generate-args.js';
import { GreedyGenerator, pastNameOf, positionIds, type DecoderSpec } from './greedy-loop.js';
import { CellSkip, UserError } from '../core/errors.js';

/** Files a Hugging Face text-generation folder must have, relative to the folder. */
export const REQUIRED_GENERATION_FILES = ['config.json', 'tokenizer.json', 'onnx/model.onnx'] as const;

/** Why a graph with past_key_values inputs and no present.* outputs is generated without a cache. */
const NO_PRESENTS = 'the graph takes past_key_values but returns no present.* outputs (no KV cache to carry); inferbench\'s loop re-reads the whole sequence every step';

/** Architecture names that carry a language-model head, as transformers names them. */
const GENERATION_HEAD = /(LMHeadModel|ForCausalLM)$/;

interface HfDecoderConfig {
  readonly architectures?: readonly string[];
  readonly model_type?: string;
  readonly n_positions?: number;
  readonly max_position_embeddings?: number;
  readonly n_head?: number;
  readonly num_attention_heads?: number;
  readonly num_key_value_heads?: number;
  readonly n_embd?: number;
  readonly hidden_size?: number;
  readonly head_dim?: number;
  readonly eos_token_id?: number | number[] | null;
  readonly inferbench?: { readonly randomWeights?: boolean };
}

/** EOS ids as a list; transformers writes `"eos_token_id": null` for a model without one, which means none. */
function asList(v: number | number[] | null | undefined): number[] {
  return (Array.isArray(v) ? v : [v]).filter((id): id is number => Number.isInteger(id));
}

/**
 * A causal language model in the Hugging Face / transformers.js folder layout
 * (config.json, generation_config.json, tokenizer.json, onnx/model.onnx with
 * `logits` and, usually, `present.*` cache outputs). It opens on every engine
 * like a classifier does, and generates greedily through inferbench's own
 * loop (`open(engine)` or, on onnx-cpu by default, `generate()`).
 */
export class TextGeneration extends BenchmarkModel {
  readonly name: string;
  readonly dir: string;
  /** Filled by `init()` from the ONNX file; empty before. */
  inputs: InputSpec[] = [];
  readonly contextLength: number;
  readonly eosTokenIds: readonly number[];
  private readonly config: HfDecoderConfig;
  private readonly tokenizer: Tokenizer;
  private spec: DecoderSpec | undefined;
  private generator: GreedyGenerator | undefined;

  constructor(dir: string, options: { name?: string } = {}) {
    super();
    this.dir = resolve(dir);
    requireModelFolder(this.dir, 'pass --model a folder with config.json, tokenizer.json and onnx/model.onnx');
    const missing = REQUIRED_GENERATION_FILES.filter((f) => !existsSync(join(this.dir, f)));
    if (missing.length > 0) {
      throw new UserError(
        `model folder ${this.dir} is missing ${missing.map((f) => join(this.dir, f)).join(', ')}`,
        'export the model in transformers.js layout, e.g. `optimum-cli export onnx --task text-generation-with-past --model <id> <dir>` and move the decoder to <dir>/onnx/model.onnx',
      );
    }
    this.config = readModelJson<HfDecoderConfig>(join(this.dir, 'config.json'));
    const architectures = this.config.architectures ?? [];
    if (architectures.length > 0 && !architectures.some((a) => GENERATION_HEAD.test(a))) {
      throw new UserError(
        `model ${this.dir} has no generation head: config.json says ${architectures.join(', ')}, not a *LMHeadModel or *ForCausalLM`,
        'pass a text-generation model (e.g. a GPT-2 exported with `--task text-generation-with-past`); classifiers go to `inferbench run`',
      );
    }
    const generationConfigPath = join(this.dir, 'generation_config.json');
    const generationConfig = existsSync(generationConfigPath) ? readModelJson<{ eos_token_id?: number | number[] | null }>(generationConfigPath) : {};
    this.eosTokenIds = asList(generationConfig.eos_token_id ?? this.config.eos_token_id);
    const tokCfgPath = join(this.dir, 'tokenizer_config.json');
    const tokenizerConfig = existsSync(tokCfgPath) ? readModelJson<{ model_max_length?: number }>(tokCfgPath) : {};
    this.tokenizer = new Tokenizer(readModelJson<object>(join(this.dir, 'tokenizer.json')), tokenizerConfig);
    const limits = [this.config.n_positions, this.config.max_position_embeddings, tokenizerConfig.model_max_length].filter(
      (n): n is number => typeof n === 'number' && n > 0 && n < 1e7,
    );
    this.contextLength = limits.length > 0 ? Math.min(...limits) : 1024;
    this.name = options.name ?? basename(this.dir);
  }

  /**
   * Reads the graph signature and checks it is a decoder: a 3-D `logits`
   * output ([batch, sequence, vocab]) fed by `input_ids`. Anything else (a
   * classifier's [batch, labels] logits) has no generation head.
   */
  async init(): Promise<this> {
    if (this.spec) return this;
    const signature = await readOnnxSignature(this.onnxPath());
    const logits = signature.outputs.find((o) => o.name === 'logits');
    const ids = signature.inputs.find((i) => i.name === 'input_ids');
    if (!logits || logits.shape.length !== 3 || !ids) {
      const got = logits ? `logits of rank ${logits.shape.length}` : `outputs ${signature.outputs.map((o) => o.name).join(', ')}`;
      throw new UserError(
        `model ${this.dir} has no generation head: its ONNX graph needs input_ids in and logits [batch, sequence, vocab] out, and has ${got}`,
        'pass a text-generation model exported with its language-model head (e.g. `optimum-cli export onnx --task text-generation-with-past`)',
      );
    }
    const past = signature.inputs.filter((i) => i.name.startsWith('past_key_values.'));
    const presents = new Set(signature.outputs.map((o) => o.name).filter((n) => n.startsWith('present')).map(pastNameOf));
    const first = past[0]?.shape ?? [];
    const heads = this.config.num_key_value_heads ?? this.config.n_head ?? this.config.num_attention_heads ?? 1;
    const hidden = this.config.n_embd ?? this.config.hidden_size ?? heads;
    this.spec = {
      contextLength: this.contextLength,
      eosTokenIds: this.eosTokenIds,
      pastNames: past.map((p) => p.name),
      hasPresentOutputs: past.every((p) => presents.has(p.name)),
      kvHeads: typeof first[1] === 'number' ? first[1] : heads,
      headDim: typeof first[3] === 'number' ? first[3] : (this.config.head_dim ?? hidden / heads),
      idDType: ids.dtype === 'int32' ? 'int32' : 'int64',
      hasPositionIds: signature.inputs.some((i) => i.name === 'position_ids'),
      hasUseCacheBranch: signature.inputs.some((i) => i.name === 'use_cache_branch'),
      hasNumLogitsToKeep: signature.inputs.some((i) => i.name === 'num_logits_to_keep'),
    };
    this.inputs = signature.inputs;
    return this;
  }

  onnxPath(): string {
    return join(this.dir, 'onnx', 'model.onnx');
  }

  /** What the greedy loop needs to know about the graph; `init()` must have run. */
  get decoder(): DecoderSpec {
    if (!this.spec) throw new Error('TextGeneration.init() must be awaited first');
    return this.spec;
  }

  get randomWeights(): boolean {
    return this.config.inferbench?.randomWeights === true;
  }

  override async info(): Promise<ModelInfo> {
    const base = await super.info();
    const notes = this.randomWeights ? ['weights are seeded random (generated by inferbench): speed is real, the generated text is meaningless'] : [];
    if (this.spec?.hasPresentOutputs === false) notes.push(NO_PRESENTS);
    return { ...base, source: this.dir, notes };
  }

  /** Token ids of a text, without special tokens (GPT-2 adds none). */
  encode(text: string): number[] {
    return this.tokenizer.encode(text, { add_special_tokens: false }).ids;
  }

  decode(ids: readonly (number | bigint)[]): string {
    return this.tokenizer.decode(ids.map(Number), { skip_special_tokens: true });
  }

  /**
   * One prompt of exactly `length` tokens per text: the text's tokens,
   * repeated when too short and truncated when too long, so every engine and
   * batch sees prompts of the length being measured.
   */
  promptIds(texts: readonly string[], length: number): bigint[][] {
    return texts.map((text) => {
      let ids = this.encode(text);
      if (ids.length === 0) ids = this.encode(' ');
      return Array.from({ length }, (_, i) => BigInt(ids[i % ids.length] as number));
    });
  }

  /** Prefill inputs (prompt, mask, positions, empty cache) for the classic per-batch Benchmark. */
  prepareBatch(rows: readonly DataRow[], columns: ResolvedColumns): TensorMap {
    const texts = rows.map((r) => textOf(r, columns.text));
    const encoded = texts.map((t) => this.encode(t).slice(0, this.contextLength));
    const seq = Math.max(1, ...encoded.map((e) => e.length));
    // Left padding, as decoder-only generation needs.
    const ids = encoded.map((e) => [...new Array<bigint>(seq - e.length).fill(BigInt(this.eosTokenIds[0] ?? 0)), ...e.map(BigInt)]);
    const mask = encoded.map((e) => [...new Array<bigint>(seq - e.length).fill(0n), ...e.map(() => 1n)]);
    const { idDType, kvHeads, headDim, pastNames, hasPositionIds } = this.decoder;
    const asIds = (values: bigint[]) =>
      idDType === 'int64' ? { dtype: 'int64' as const, dims: [rows.length, seq], data: BigInt64Array.from(values) } : { dtype: 'int32' as const, dims: [rows.length, seq], data: Int32Array.from(values, Number) };
    const out: TensorMap = { input_ids: asIds(ids.flat()), attention_mask: asIds(mask.flat()) };
    if (hasPositionIds) out['position_ids'] = asIds(positionIds(mask, seq));
    for (const name of pastNames) out[name] = { dtype: 'float32', dims: [rows.length, kvHeads, 0, headDim], data: new Float32Array(0) };
    if (this.decoder.hasUseCacheBranch) out['use_cache_branch'] = { dtype: 'bool', dims: [1], data: Uint8Array.of(0) };
    if (this.decoder.hasNumLogitsToKeep) out['num_logits_to_keep'] = { dtype: 'int64', dims: [], data: BigInt64Array.of(1n) };
    return out;
  }

  /** Opens the decoder on one engine (by registry id) and returns a greedy generator over that session. */
  async open(engineId: string, options: ExportOptions = {}): Promise<GreedyGenerator> {
    await this.init();
    const engine = options.engine ?? (await (options.registry ?? standaloneRegistry()).require(engineId));
    return new GreedyGenerator(await openOn(engine, this, options), this.decoder);
  }

  /**
   * What generates on `engineId` in a sweep: the engine's own loop when it
   * has one (transformers.js `AutoModelForCausalLM.generate()`, its most
   * natural JS path), otherwise inferbench's greedy loop over `open()`.
   */
  async openGenerator(engineId: string, options: ExportOptions = {}): Promise<EngineGenerator> {
    await this.init();
    const engine = options.engine ?? (await (options.registry ?? standaloneRegistry()).require(engineId));
    // An engine's own loop carries present.* back as its cache: without them it would misread every step, so it is skipped.
    if (engine.openGenerator && this.decoder.hasPresentOutputs === false) {
      throw new CellSkip(`${engine.id} needs the cache outputs: ${NO_PRESENTS.replace(/;.*/, '')}; export the model with --task text-generation-with-past`);
    }
    if (engine.openGenerator) return engine.openGenerator(this.onnxPath(), { threads: options.threads ?? null, precision: this.precision });
    return this.open(engineId, { ...options, engine });
  }

  /**
   * transformers.js-style `generate()` through inferbench's greedy loop on
   * onnx-cpu, opened on first use; call `open()` to pick another engine and
   * pass its generator around instead.
   */
  async generate(args: GenerateArgs): Promise<unknown> {
    await this.ready();
    return (this.generator as GreedyGenerator).generate(args);
  }

  /** Opens the onnx-cpu session `generate()` uses; BenchmarkWrapper awaits this before timing, so TTFT never includes an open. */
  async ready(): Promise<void> {
    this.generator ??= await this.open('onnx-cpu');
  }

  /** Releases the session `generate()` opened, if any. */
  async dispose(): Promise<void> {
    await this.generator?.session.dispose();
    this.generator = undefined;
  }
}
