/**
 * inferbench's own greedy decoding loop over any engine session. It feeds a
 * decoder graph in transformers.js's cache layout exactly as transformers.js
 * does (empty cache first, then one token per step with the presents fed
 * back as past_key_values, position ids from the attention mask), so that on
 * the same graph its greedy output equals transformers.js's token for token,
 * and the engines compare on the same work.
 */
import { UserError } from '../core/errors.js';
import { largestAllowed } from '../core/option-ranges.js';
import type { EngineSession } from '../core/engine-session.js';
import type { HostDType, HostTensor, TensorMap } from '../core/tensor.js';
import { requireNewTokens, tokenRows, type GenerateArgs, type GenerationModelLike } from '../core/generate-args.js';

/** What the loop must know about a decoder graph, read from its files by `TextGeneration`. */
export interface DecoderSpec {
  /** Longest sequence (prompt + new tokens) the position embedding covers. */
  readonly contextLength: number;
  readonly eosTokenIds: readonly number[];
  /** Names of the graph's cache inputs (`past_key_values.<i>.key/value`). */
  readonly pastNames: readonly string[];
  /**
   * False when the graph takes past_key_values but returns no `present.*`
   * for each of them: nothing can be carried between steps, so the loop feeds
   * an empty cache and re-reads the whole sequence every step (no KV cache).
   */
  readonly hasPresentOutputs?: boolean;
  /** Cache heads and head size: the empty cache is [batch, kvHeads, 0, headDim]. */
  readonly kvHeads: number;
  readonly headDim: number;
  /** dtype of input_ids / attention_mask / position_ids in the graph. */
  readonly idDType: Extract<HostDType, 'int64' | 'int32'>;
  readonly hasPositionIds: boolean;
  /** Merged decoders (optimum's `decoder_model_merged`) choose their branch with a bool `use_cache_branch` input. */
  readonly hasUseCacheBranch?: boolean;
  /** Decoders with a `num_logits_to_keep` input return logits for that many last positions; generation asks for 1. */
  readonly hasNumLogitsToKeep?: boolean;
}

/** `present.<i>.key` → `past_key_values.<i>.key`, the renaming transformers.js applies between steps. */
export function pastNameOf(presentName: string): string {
  return presentName.replace(/^present/, 'past_key_values');
}

function idTensor(dtype: DecoderSpec['idDType'], dims: readonly number[], values: readonly bigint[]): HostTensor {
  return dtype === 'int64'
    ? { dtype, dims: [...dims], data: BigInt64Array.from(values) }
    : { dtype, dims: [...dims], data: Int32Array.from(values, Number) };
}

/**
 * transformers.js's `cumsum_masked_fill`: each kept token's position counts
 * the kept tokens before it; padding gets 1. Returns the last `take` columns.
 */
export function positionIds(mask: readonly bigint[][], take: number): bigint[] {
  const out: bigint[] = [];
  for (const row of mask) {
    let sum = 0n;
    const positions = row.map((m) => {
      if (m === 0n) return 1n;
      const p = sum;
      sum += m;
      return p;
    });
    out.push(...positions.slice(positions.length - take));
  }
  return out;
}

/** Index of the largest value, first one on ties: the rule of transformers.js's greedy sampler. */
export function argmax(values: Float32Array, start: number, length: number): number {
  let best = 0;
  let max = values[start] as number;
  for (let i = 1; i < length; i++) {
    const v = values[start + i] as number;
    if (v > max) {
      max = v;
      best = i;
    }
  }
  return best;
}

/**
 * Greedy generation on one opened session. `generate()` takes the same
 * arguments as transformers.js's (`input_ids`, `attention_mask`,
 * `max_new_tokens`, `min_new_tokens`, `streamer`) and returns the sequences,
 * prompt included, as an int64 HostTensor [batch, prompt + generated].
 */
export class GreedyGenerator implements GenerationModelLike {
  constructor(
    readonly session: EngineSession,
    readonly decoder: DecoderSpec,
  ) {}

  async generate(args: GenerateArgs): Promise<HostTensor<'int64'>> {
    if (args.do_sample === true) throw new UserError('inferbench\'s generation loop is greedy only (do_sample: true was passed)', 'leave do_sample unset or false');
    const maxNew = requireNewTokens(args.max_new_tokens ?? args['maxNewTokens'], 'max_new_tokens');
    const minNew = Math.min(maxNew, Number(args.min_new_tokens ?? args['minNewTokens'] ?? 0));
    const rows = tokenRows(args.input_ids);
    const batch = rows.length;
    const promptLength = rows[0]?.length ?? 0;
    if (batch === 0 || promptLength === 0) throw new UserError('input_ids is empty', 'pass at least one prompt of at least one token');
    checkContext(promptLength, maxNew, this.decoder.contextLength);
    const mask = args.attention_mask ? tokenRows(args.attention_mask, 'attention_mask') : rows.map((r) => r.map(() => 1n));
    const { idDType, kvHeads, headDim, eosTokenIds } = this.decoder;
    const eos = new Set(eosTokenIds.map(BigInt));

    const feeds: TensorMap = {};
    for (const name of this.decoder.pastNames) feeds[name] = { dtype: 'float32', dims: [batch, kvHeads, 0, headDim], data: new Float32Array(0) };
    if (this.decoder.hasNumLogitsToKeep) feeds['num_logits_to_keep'] = { dtype: 'int64', dims: [], data: BigInt64Array.of(1n) };
    let stepIds = rows.flat();
    let stepLength = promptLength;
    const sequences = rows.map((r) => [...r]);
    args.streamer?.put(sequences.map((r) => [...r]));
    for (let generated = 0; ; ) {
      feeds['input_ids'] = idTensor(idDType, [batch, stepLength], stepIds);
      feeds['attention_mask'] = idTensor(idDType, [batch, mask[0]?.length ?? 0], mask.flat());
      if (this.decoder.hasPositionIds) feeds['position_ids'] = idTensor(idDType, [batch, stepLength], positionIds(mask, stepLength));
      // As transformers.js: the no-cache branch for the prompt, the cache branch for every later step.
      if (this.decoder.hasUseCacheBranch) feeds['use_cache_branch'] = { dtype: 'bool', dims: [1], data: Uint8Array.of(generated > 0 ? 1 : 0) };
      const outputs = await this.session.run(feeds);
      const logits = outputs['logits'];
      if (!logits || logits.dtype !== 'float32' || logits.dims.length !== 3) {
        throw new Error(`the decoder returned no float32 logits [batch, sequence, vocab] (got ${logits ? `${logits.dtype} [${logits.dims.join(', ')}]` : 'none'})`);
      }
      const [, outLength, vocab] = logits.dims as [number, number, number];
      const data = logits.data as Float32Array;
      generated++;
      const next: bigint[] = [];
      for (let b = 0; b < batch; b++) {
        const start = (b * outLength + outLength - 1) * vocab;
        // MinNewTokensLengthLogitsProcessor: EOS cannot win before min_new_tokens.
        if (generated <= minNew) for (const id of eosTokenIds) data[start + id] = -Infinity;
        next.push(BigInt(argmax(data, start, vocab)));
      }
      next.forEach((t, b) => sequences[b]?.push(t));
      args.streamer?.put(next.map((t) => [t]));
      // transformers.js stops when every row is at max length or ends in EOS.
      if (generated >= maxNew || next.every((t) => eos.has(t))) break;
      for (const [name, t] of Object.entries(outputs)) if (name.startsWith('present')) feeds[pastNameOf(name)] = t;
      mask.forEach((r) => r.push(1n));
      // A graph without a cache re-reads the whole sequence each step.
      // So does one whose cache inputs have no present outputs to fill them: its cache stays empty.
      const cached = this.decoder.pastNames.length > 0 && this.decoder.hasPresentOutputs !== false;
      stepIds = cached ? next : sequences.flat();
      stepLength = cached ? 1 : (sequences[0]?.length ?? 0);
    }
    args.streamer?.end();
    return { dtype: 'int64', dims: [batch, sequences[0]?.length ?? 0], data: BigInt64Array.from(sequences.flat()) };
  }
}

/**
 * A prompt that does not fit the context, alone or with the tokens to
 * generate, is a user error naming both lengths: engines would otherwise
 * fail with an index error deep inside the position embedding. The fix is
 * computed from the same bound, so following it passes this check.
 */
export function checkContext(promptLength: number, maxNewTokens: number, contextLength: number): void {
  if (promptLength + maxNewTokens <= contextLength) return;
  const longestPrompt = largestAllowed('promptLengths', contextLength - maxNewTokens);
  const mostNew = largestAllowed('newTokens', contextLength - Math.min(promptLength, contextLength));
  const fix = [
    ...(longestPrompt !== null ? [`use prompts of at most ${longestPrompt} tokens with ${maxNewTokens} new tokens`] : []),
    ...(mostNew !== null ? [`generate at most ${mostNew} new tokens from ${promptLength}-token prompts`] : []),
  ].join(', or ') || `use shorter prompts and fewer new tokens: together at most ${contextLength}`;
  if (promptLength > contextLength) {
    throw new UserError(`the prompt has ${promptLength} tokens, longer than the model's context of ${contextLength} tokens`, fix);
  }
  throw new UserError(
    `the prompt of ${promptLength} tokens plus ${maxNewTokens} new tokens is ${promptLength + maxNewTokens}, longer than the model's context of ${contextLength} tokens`,
    fix,
  );
}
