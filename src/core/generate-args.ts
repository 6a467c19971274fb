/**
 * The `generate()` contract inferbench shares with transformers.js, so one
 * wrapper times both a transformers.js `AutoModelForCausalLM` and inferbench's
 * own greedy loop on any engine: snake_case arguments and a streamer that
 * receives the prompt once, then every step's new tokens.
 */
import { UserError } from './errors.js';

/** Called by `generate()` as in transformers.js: `put(prompt ids)` once, `put([[tok], …])` per step, then `end()`. */
export interface TokenStreamer {
  put(tokens: bigint[][]): void;
  end(): void;
}

/** A tensor as either library passes it: transformers.js `Tensor`, an inferbench HostTensor, or nested arrays. */
export type TokenTensorLike =
  | { readonly dims: readonly number[]; readonly data: ArrayLike<number | bigint> }
  | readonly (readonly (number | bigint)[])[];

/** Arguments of `generate()`; extra keys are passed through to the wrapped model untouched. */
export interface GenerateArgs {
  readonly input_ids: TokenTensorLike;
  readonly attention_mask?: TokenTensorLike;
  readonly max_new_tokens?: number;
  readonly min_new_tokens?: number | null;
  readonly do_sample?: boolean;
  readonly streamer?: TokenStreamer;
  readonly [key: string]: unknown;
}

/** Anything with a transformers.js-style `generate()`. */
export interface GenerationModelLike {
  generate(args: GenerateArgs): Promise<unknown>;
}

/** True when `value` has a callable `generate`, the one thing a generation model needs here. */
export function canGenerate(value: unknown): value is GenerationModelLike {
  // transformers.js models are callable objects, so functions count too.
  return (typeof value === 'object' || typeof value === 'function') && value !== null && typeof (value as { generate?: unknown }).generate === 'function';
}

/**
 * Checks a requested number of new tokens. Zero or a negative count would
 * measure nothing (no first token), so it is a user error rather than an
 * empty result.
 */
export function requireNewTokens(value: unknown, name = 'maxNewTokens'): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value <= 0) {
    throw new UserError(
      `${name} must be a whole number of at least 1, got ${JSON.stringify(value) ?? String(value)}`,
      `pass ${name} ≥ 1: the first token is what is being measured`,
    );
  }
  return value;
}

/** Rows of token ids from any TokenTensorLike, as bigint arrays; checks that the rows are rectangular. */
export function tokenRows(t: TokenTensorLike, name = 'input_ids'): bigint[][] {
  if (Array.isArray(t)) {
    const rows = (t as readonly (readonly (number | bigint)[])[]).map((row) => row.map((v) => BigInt(v)));
    if (rows.some((r) => r.length !== rows[0]?.length)) throw new UserError(`${name} rows have different lengths`, 'pad the prompts to one length (left padding) and pass attention_mask');
    return rows;
  }
  const { dims, data } = t as { dims: readonly number[]; data: ArrayLike<number | bigint> };
  if (dims.length !== 2) throw new UserError(`${name} must be 2-D [batch, sequence], got dims [${dims.join(', ')}]`, 'pass one row of token ids per prompt');
  const [batch, seq] = dims as [number, number];
  const rows: bigint[][] = [];
  for (let b = 0; b < batch; b++) {
    const row: bigint[] = new Array<bigint>(seq);
    for (let i = 0; i < seq; i++) row[i] = BigInt(data[b * seq + i] as number | bigint);
    rows.push(row);
  }
  return rows;
}
