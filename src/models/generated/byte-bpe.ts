/**
 * A byte-level BPE tokenizer in GPT-2's form, trained on the benchmark texts
 * and written as the Hugging Face files every loader understands. Byte-level
 * means the 256 byte symbols are always in the vocabulary, so any text
 * tokenizes without an unknown token; the merges fitted to the data make
 * token counts (and so sequence lengths and timings) realistic. Training is
 * deterministic: the same texts always give the same vocabulary and merges.
 */

/** GPT-2's end-of-text token, which is also its BOS and EOS. */
export const END_OF_TEXT = '<|endoftext|>';

/** GPT-2's pre-tokenization pattern, the one the tokenizers library's ByteLevel pre-tokenizer applies. */
const GPT2_PATTERN = /'s|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+/gu;

/** Pairs seen fewer times than this are not merged: a merge used once only memorises the corpus. */
export const MIN_PAIR_FREQUENCY = 2;

/**
 * GPT-2's reversible byte-to-character map: printable bytes map to
 * themselves, the rest to code points from 256 up, so every byte is a
 * visible character in vocab and merges files.
 */
export function bytesToUnicode(): string[] {
  const printable: number[] = [];
  for (let b = 33; b <= 126; b++) printable.push(b);
  for (let b = 161; b <= 172; b++) printable.push(b);
  for (let b = 174; b <= 255; b++) printable.push(b);
  const map: string[] = new Array<string>(256);
  let next = 0;
  for (let b = 0; b < 256; b++) {
    map[b] = printable.includes(b) ? String.fromCharCode(b) : String.fromCharCode(256 + next++);
  }
  return map;
}

/** Words of a text as the ByteLevel pre-tokenizer sees them: pattern pieces, each byte as its mapped character. */
export function byteLevelWords(text: string, byteMap: readonly string[] = bytesToUnicode()): string[][] {
  const encoder = new TextEncoder();
  return (text.match(GPT2_PATTERN) ?? []).map((piece) => Array.from(encoder.encode(piece), (b) => byteMap[b] as string));
}

/** A trained tokenizer: token strings by id and merges in rank order. */
export interface ByteBpeModel {
  readonly vocab: readonly string[];
  readonly merges: readonly (readonly [string, string])[];
}

const SEP = '\u0000';

interface HeapEntry {
  readonly count: number;
  readonly key: string;
}

/** Max-heap of (count, pair) with ties broken by the pair's text, so training order never depends on insertion order. */
class PairHeap {
  private readonly items: HeapEntry[] = [];

  private before(a: HeapEntry, b: HeapEntry): boolean {
    return a.count > b.count || (a.count === b.count && a.key < b.key);
  }

  push(count: number, key: string): void {
    const items = this.items;
    items.push({ count, key });
    let i = items.length - 1;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (!this.before(items[i] as HeapEntry, items[parent] as HeapEntry)) break;
      [items[i], items[parent]] = [items[parent] as HeapEntry, items[i] as HeapEntry];
      i = parent;
    }
  }

  pop(): HeapEntry | undefined {
    const items = this.items;
    const top = items[0];
    const last = items.pop();
    if (items.length > 0 && last) {
      items[0] = last;
      let i = 0;
      for (;;) {
        const l = 2 * i + 1;
        const r = l + 1;
        let best = i;
        if (l < items.length && this.before(items[l] as HeapEntry, items[best] as HeapEntry)) best = l;
        if (r < items.length && this.before(items[r] as HeapEntry, items[best] as HeapEntry)) best = r;
        if (best === i) break;
        [items[i], items[best]] = [items[best] as HeapEntry, items[i] as HeapEntry];
        i = best;
      }
    }
    return top;
  }
}

/**
 * Trains byte-level BPE on `texts` up to `maxVocab` tokens (the 256 byte
 * symbols, the merged symbols, and END_OF_TEXT last, as in GPT-2). Stops
 * early when no pair occurs MIN_PAIR_FREQUENCY times. Pair counts are
 * updated incrementally, word by affected word, so training the embedded
 * data set takes a fraction of a second.
 */
export function trainByteBpe(texts: Iterable<string>, maxVocab: number): ByteBpeModel {
  if (!Number.isSafeInteger(maxVocab) || maxVocab < 257) {
    throw new RangeError(`a byte-level vocabulary needs at least 257 tokens (256 bytes and ${END_OF_TEXT}), got ${maxVocab}`);
  }
  const byteMap = bytesToUnicode();
  const counts = new Map<string, number>();
  for (const text of texts) {
    for (const word of byteLevelWords(text, byteMap)) {
      if (word.length < 2) continue;
      const key = word.join(SEP);
      counts.set(key, (counts.get(key) ?? 0) + 1);
    }
  }
  const words = [...counts].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([key, count]) => ({ symbols: key.split(SEP), count }));

  const pairCounts = new Map<string, number>();
  const pairWords = new Map<string, Set<number>>();
  const heap = new PairHeap();
  const touched = new Set<string>();
  const adjust = (index: number, sign: 1 | -1): void => {
    const { symbols, count } = words[index] as { symbols: string[]; count: number };
    for (let i = 0; i + 1 < symbols.length; i++) {
      const key = `${symbols[i]}${SEP}${symbols[i + 1]}`;
      pairCounts.set(key, (pairCounts.get(key) ?? 0) + sign * count);
      touched.add(key);
      if (sign === 1) {
        let set = pairWords.get(key);
        if (!set) pairWords.set(key, (set = new Set()));
        set.add(index);
      }
    }
  };
  const flush = (): void => {
    for (const key of touched) heap.push(pairCounts.get(key) ?? 0, key);
    touched.clear();
  };
  words.forEach((_, i) => adjust(i, 1));
  flush();

  const vocab: string[] = [...byteMap];
  const known = new Set(vocab);
  const merges: [string, string][] = [];
  while (vocab.length < maxVocab - 1) {
    const top = heap.pop();
    if (!top) break;
    if (top.count !== pairCounts.get(top.key)) continue; // stale entry
    if (top.count < MIN_PAIR_FREQUENCY) break;
    const [a, b] = top.key.split(SEP) as [string, string];
    const merged = a + b;
    merges.push([a, b]);
    if (!known.has(merged)) {
      known.add(merged);
      vocab.push(merged);
    }
    for (const index of [...(pairWords.get(top.key) ?? [])]) {
      const word = words[index] as { symbols: string[]; count: number };
      adjust(index, -1);
      const out: string[] = [];
      for (let i = 0; i < word.symbols.length; i++) {
        if (i + 1 < word.symbols.length && word.symbols[i] === a && word.symbols[i + 1] === b) {
          out.push(merged);
          i++;
        } else {
          out.push(word.symbols[i] as string);
        }
      }
      word.symbols = out;
      adjust(index, 1);
    }
    pairWords.delete(top.key);
    flush();
  }
  vocab.push(END_OF_TEXT);
  return { vocab, merges };
}

/**
 * `tokenizer.json` of the tokenizers library for a trained model, in the same
 * structure as openai-community/gpt2's, so the Rust, Python and JS
 * tokenizers all load it.
 */
export function buildByteBpeTokenizerJson(model: ByteBpeModel): Record<string, unknown> {
  const eos = model.vocab.indexOf(END_OF_TEXT);
  if (eos < 0) throw new RangeError(`vocabulary has no ${END_OF_TEXT}`);
  const byteLevel = (addPrefixSpace: boolean, trimOffsets: boolean) => ({ type: 'ByteLevel', add_prefix_space: addPrefixSpace, trim_offsets: trimOffsets, use_regex: true });
  return {
    version: '1.0',
    truncation: null,
    padding: null,
    added_tokens: [{ id: eos, content: END_OF_TEXT, single_word: false, lstrip: false, rstrip: false, normalized: true, special: true }],
    normalizer: null,
    pre_tokenizer: byteLevel(false, true),
    post_processor: byteLevel(true, false),
    decoder: byteLevel(true, true),
    model: {
      type: 'BPE',
      dropout: null,
      unk_token: null,
      continuing_subword_prefix: '',
      end_of_word_suffix: '',
      fuse_unk: false,
      byte_fallback: false,
      ignore_merges: false,
      vocab: Object.fromEntries(model.vocab.map((token, id) => [token, id])),
      merges: model.merges.map(([a, b]) => [a, b]),
    },
  };
}

/** `tokenizer_config.json` naming GPT2Tokenizer and its special tokens, which transformers (Python and JS) read. */
export function buildByteBpeTokenizerConfig(model: ByteBpeModel, maxPositions: number): Record<string, unknown> {
  const eos = model.vocab.indexOf(END_OF_TEXT);
  return {
    add_bos_token: false,
    add_prefix_space: false,
    added_tokens_decoder: {
      [String(eos)]: { content: END_OF_TEXT, lstrip: false, normalized: true, rstrip: false, single_word: false, special: true },
    },
    bos_token: END_OF_TEXT,
    clean_up_tokenization_spaces: false,
    eos_token: END_OF_TEXT,
    model_max_length: maxPositions,
    tokenizer_class: 'GPT2Tokenizer',
    unk_token: END_OF_TEXT,
  };
}
