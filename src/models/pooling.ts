/**
 * Sentence-embedding post-processing as sentence-transformers does it:
 * token vectors pooled over the attention mask (the modes of
 * `1_Pooling/config.json`, read by sentence-transformers-folder.ts), then L2-normalised when the model lists a
 * `Normalize` module. It runs on host tensors after the engine call, so
 * every engine pays the same work in the same scope.
 */
import { UserError } from '../core/errors.js';
import { EMBEDDING_OUTPUT_NAME } from '../core/parity.js';
import type { HostTensor, TensorMap } from '../core/tensor.js';

/** Pooling modes inferbench computes, in the order sentence-transformers concatenates them when several are on. */
export const POOLING_MODES = ['cls', 'max', 'mean', 'mean_sqrt_len'] as const;
export type PoolingMode = (typeof POOLING_MODES)[number];

/** How a model turns token vectors into one vector per text. */
export interface PoolingSpec {
  readonly modes: readonly PoolingMode[];
  readonly normalize: boolean;
}

/** The output name every feature-extraction session returns: one pooled (and normalised) vector per row (named in core, which parity reads it from). */
export const EMBEDDING_OUTPUT = EMBEDDING_OUTPUT_NAME;

/** Graph outputs that hold token vectors to pool, in order of preference. */
export const TOKEN_OUTPUTS = ['token_embeddings', 'last_hidden_state'] as const;

/** sentence-transformers' config keys (`pooling_mode_<key>`) for each mode, and its `pooling_mode` string names. */
const CONFIG_KEYS: Readonly<Record<string, PoolingMode>> = {
  cls_token: 'cls',
  max_tokens: 'max',
  mean_tokens: 'mean',
  mean_sqrt_len_tokens: 'mean_sqrt_len',
};
const MODE_NAMES: Readonly<Record<string, PoolingMode>> = { cls: 'cls', max: 'max', mean: 'mean', mean_sqrt_len_tokens: 'mean_sqrt_len', mean_sqrt_len: 'mean_sqrt_len' };
/** Modes sentence-transformers has that inferbench does not compute; refused by name rather than pooled wrongly. */
const UNSUPPORTED = new Set(['weightedmean_tokens', 'weightedmean', 'lasttoken']);

/** The modes a `1_Pooling/config.json` turns on; a mode that does not exist, or none at all, is a UserError naming the file. */
export function parsePoolingConfig(config: Record<string, unknown>, path: string): PoolingMode[] {
  const fix = `set one of ${Object.keys(CONFIG_KEYS).map((k) => `"pooling_mode_${k}": true`).join(', ')} in ${path} (or "pooling_mode": one of ${POOLING_MODES.join(', ')})`;
  const on = new Set<PoolingMode>();
  if (config['pooling_mode'] !== undefined) {
    const named = config['pooling_mode'];
    const mode = typeof named === 'string' ? MODE_NAMES[named] : undefined;
    if (mode === undefined) throw new UserError(`${path} asks for pooling mode ${JSON.stringify(named)}, which does not exist`, fix);
    on.add(mode);
  }
  for (const [key, value] of Object.entries(config)) {
    const m = /^pooling_mode_(.+)$/.exec(key);
    if (!m || value !== true) continue;
    const name = m[1] as string;
    const mode = CONFIG_KEYS[name];
    if (mode !== undefined) on.add(mode);
    else if (UNSUPPORTED.has(name)) throw new UserError(`${path} asks for pooling mode "${name}", which inferbench does not compute`, fix);
    else throw new UserError(`${path} asks for pooling mode "${name}" (${key}), which does not exist`, fix);
  }
  if (on.size === 0) throw new UserError(`${path} turns on no pooling mode`, fix);
  return POOLING_MODES.filter((m) => on.has(m));
}

function maskAt(mask: HostTensor | undefined, i: number): number {
  if (!mask) return 1;
  return Number(mask.data[i]) > 0 ? 1 : 0;
}

/**
 * Pools token vectors [batch, sequence, hidden] over `mask` [batch,
 * sequence] into [batch, hidden × modes], as sentence-transformers'
 * Pooling module: mean divides by max(Σmask, 1e-9), max sets padding to
 * −1e9 first, mean_sqrt_len divides the sum by √Σmask, cls takes position 0.
 */
export function poolTokens(tokens: HostTensor, mask: HostTensor | undefined, modes: readonly PoolingMode[]): HostTensor {
  const [batch, seq, hidden] = tokens.dims as [number, number, number];
  if (tokens.dims.length !== 3) throw new Error(`token vectors must be [batch, sequence, hidden]; got [${tokens.dims.join(', ')}]`);
  const data = tokens.data as Float32Array;
  const width = hidden * modes.length;
  const out = new Float32Array(batch * width);
  const sum = new Float64Array(hidden);
  const max = new Float64Array(hidden);
  for (let b = 0; b < batch; b++) {
    sum.fill(0);
    max.fill(-Infinity);
    let count = 0;
    for (let s = 0; s < seq; s++) {
      const m = maskAt(mask, b * seq + s);
      count += m;
      const base = (b * seq + s) * hidden;
      for (let h = 0; h < hidden; h++) {
        const v = data[base + h] as number;
        if (m) sum[h] = (sum[h] as number) + v;
        const masked = m ? v : -1e9;
        if (masked > (max[h] as number)) max[h] = masked;
      }
    }
    modes.forEach((mode, k) => {
      const o = b * width + k * hidden;
      for (let h = 0; h < hidden; h++) {
        out[o + h] =
          mode === 'cls' ? (data[b * seq * hidden + h] as number)
          : mode === 'max' ? (max[h] as number)
          : mode === 'mean' ? (sum[h] as number) / Math.max(count, 1e-9)
          : (sum[h] as number) / Math.sqrt(count);
      }
    });
  }
  return { dtype: 'float32', dims: [batch, width], data: out };
}

/** Each row divided by its L2 norm (at least 1e-12), as torch.nn.functional.normalize(p=2, dim=1). */
export function normalizeRows(t: HostTensor): HostTensor {
  const [rows, width] = t.dims as [number, number];
  const src = t.data as Float32Array;
  const out = new Float32Array(src.length);
  for (let r = 0; r < rows; r++) {
    let sq = 0;
    for (let i = 0; i < width; i++) sq += (src[r * width + i] as number) ** 2;
    const norm = Math.max(Math.sqrt(sq), 1e-12);
    for (let i = 0; i < width; i++) out[r * width + i] = (src[r * width + i] as number) / norm;
  }
  return { dtype: 'float32', dims: [rows, width], data: out };
}

/**
 * The sentence embedding of a batch from an engine's outputs: a
 * `sentence_embedding` the engine already pooled (a graph with that
 * output, or the transformers.js pipeline) is kept as it is; otherwise the
 * token vectors are pooled and normalised as `spec` says.
 */
export function sentenceEmbedding(outputs: TensorMap, inputs: TensorMap, spec: PoolingSpec): TensorMap {
  const single = singleEmbedding(outputs, inputs, spec);
  const vectors = single[EMBEDDING_OUTPUT] as HostTensor;
  return isPairBatch(inputs) ? { [EMBEDDING_OUTPUT]: pairRows(vectors) } : single;
}

function singleEmbedding(outputs: TensorMap, inputs: TensorMap, spec: PoolingSpec): TensorMap {
  const ready = outputs[EMBEDDING_OUTPUT];
  if (ready && ready.dims.length === 2) return { [EMBEDDING_OUTPUT]: ready.dtype === 'float32' ? ready : { dtype: 'float32', dims: ready.dims, data: Float32Array.from(ready.data as ArrayLike<number>) } };
  const name = TOKEN_OUTPUTS.find((n) => outputs[n] !== undefined);
  const tokens = name === undefined ? undefined : outputs[name];
  if (!tokens) throw new Error(`the engine returned no token vectors to pool (outputs: ${Object.keys(outputs).join(', ') || 'none'}; expected ${[EMBEDDING_OUTPUT, ...TOKEN_OUTPUTS].join(' or ')})`);
  const f32 = tokens.dtype === 'float32' ? tokens : { dtype: 'float32' as const, dims: tokens.dims, data: Float32Array.from(tokens.data as ArrayLike<number>) };
  const pooled = poolTokens(f32, inputs['attention_mask'], spec.modes);
  return { [EMBEDDING_OUTPUT]: spec.normalize ? normalizeRows(pooled) : pooled };
}

const PAIRS = Symbol('inferbench.stsPairs');

/** Marks a batch as STS pairs: its 2n texts are n first sentences, then their n second sentences. */
export function markPairs(inputs: TensorMap): TensorMap {
  Object.defineProperty(inputs, PAIRS, { value: true, enumerable: false });
  return inputs;
}

/** True for a batch marked by markPairs. */
export function isPairBatch(inputs: TensorMap): boolean {
  return (inputs as unknown as Record<symbol, unknown>)[PAIRS] === true;
}

/**
 * The embeddings of a pair batch [2n, width] as [n, 2 × width], row i the
 * first sentence's vector then the second's, so every per-row consumer
 * (parity rows, the STS tally, saved outputs) sees one row per pair.
 */
export function pairRows(embedding: HostTensor): HostTensor {
  const [rows, width] = embedding.dims as [number, number];
  const n = rows / 2;
  const src = embedding.data as Float32Array;
  const out = new Float32Array(src.length);
  for (let i = 0; i < n; i++) {
    out.set(src.subarray(i * width, (i + 1) * width), i * 2 * width);
    out.set(src.subarray((n + i) * width, (n + i + 1) * width), i * 2 * width + width);
  }
  return { dtype: 'float32', dims: [n, 2 * width], data: out };
}

/** A short description for session notes and reports, e.g. `mean pooling, L2-normalised`. */
export function describePooling(spec: PoolingSpec): string {
  return `${spec.modes.join(' + ')} pooling${spec.normalize ? ', L2-normalised' : ''}`;
}
