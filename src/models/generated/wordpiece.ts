/**
 * Builds the generated model's WordPiece vocabulary from the benchmark texts
 * and writes it as the Hugging Face files every loader understands
 * (`tokenizer.json`, `tokenizer_config.json`). A vocabulary fitted to the data
 * makes token counts, and so sequence lengths and timings, realistic, while
 * staying deterministic: the same texts always give the same ids.
 *
 * Normalization and pre-tokenization follow BERT's uncased basic tokenizer
 * (the `BertNormalizer` and `BertPreTokenizer` of the tokenizers library), so
 * the words counted here are exactly the words the tokenizer later sees.
 */

/** Special tokens, in id order: [PAD] is 0 as in every BERT checkpoint. */
export const SPECIAL_TOKENS = ['[PAD]', '[UNK]', '[CLS]', '[SEP]', '[MASK]'] as const;

/** Continuing-subword prefix of BERT WordPiece. */
export const SUBWORD_PREFIX = '##';

/** Words longer than this become [UNK], as in BERT; such words are not worth a vocabulary slot. */
export const MAX_INPUT_CHARS_PER_WORD = 100;

function isChineseChar(cp: number): boolean {
  return (
    (cp >= 0x4e00 && cp <= 0x9fff) ||
    (cp >= 0x3400 && cp <= 0x4dbf) ||
    (cp >= 0x20000 && cp <= 0x2a6df) ||
    (cp >= 0x2a700 && cp <= 0x2b73f) ||
    (cp >= 0x2b740 && cp <= 0x2b81f) ||
    (cp >= 0x2b820 && cp <= 0x2ceaf) ||
    (cp >= 0xf900 && cp <= 0xfaff) ||
    (cp >= 0x2f800 && cp <= 0x2fa1f)
  );
}

const CONTROL = /^[\p{Cc}\p{Cf}\p{Co}\p{Cn}]$/u;
const WHITESPACE = /^\s$/u;
const COMBINING_MARK = /\p{Mn}/gu;
const PUNCTUATION_CLASS = '\\p{P}\\u0021-\\u002F\\u003A-\\u0040\\u005B-\\u0060\\u007B-\\u007E';
/** A run of non-space, non-punctuation characters, or one punctuation character (BertPreTokenizer's rule). */
const WORD_OR_PUNCTUATION = new RegExp(`[^\\s${PUNCTUATION_CLASS}]+|[${PUNCTUATION_CLASS}]`, 'gu');
/** Printable ASCII plus tab/newline/CR: the common case, which needs no per-character work. */
const PLAIN_ASCII = /^[\x20-\x7e\t\n\r]*$/;

/**
 * BERT uncased normalization: drop control characters, map whitespace to
 * spaces, space out CJK ideographs, lowercase, strip accents.
 */
export function bertNormalize(text: string): string {
  if (PLAIN_ASCII.test(text)) return text.replace(/[\t\n\r]/g, ' ').toLowerCase();
  let out = '';
  for (const ch of text) {
    const cp = ch.codePointAt(0) as number;
    if (ch === '\t' || ch === '\n' || ch === '\r') {
      out += ' ';
    } else if (cp === 0 || cp === 0xfffd || CONTROL.test(ch)) {
      continue;
    } else if (WHITESPACE.test(ch)) {
      out += ' ';
    } else if (isChineseChar(cp)) {
      out += ` ${ch} `;
    } else {
      out += ch;
    }
  }
  return out.toLowerCase().normalize('NFD').replace(COMBINING_MARK, '');
}

/** BERT pre-tokenization: split on whitespace, and make each punctuation character a word of its own. */
export function bertPreTokenize(normalized: string): string[] {
  return normalized.match(WORD_OR_PUNCTUATION) ?? [];
}

/** Code-unit order: deterministic across locales, unlike localeCompare; alphabetical for ASCII. */
function compareStrings(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function byCountThenText(counts: ReadonlyMap<string, number>): (a: string, b: string) => number {
  return (a, b) => (counts.get(b) ?? 0) - (counts.get(a) ?? 0) || compareStrings(a, b);
}

/**
 * The vocabulary, id = index: special tokens, then every character seen (in
 * code-point order), then their `##` forms, then whole words by descending
 * frequency (ties alphabetical) until `maxSize`. With every character present,
 * any word made of seen characters tokenizes without [UNK].
 * If even the characters do not fit, the most frequent ones are kept.
 */
export function buildWordPieceVocab(texts: Iterable<string>, maxSize: number): string[] {
  if (!Number.isSafeInteger(maxSize) || maxSize < SPECIAL_TOKENS.length) {
    throw new RangeError(`vocabulary size ${maxSize} cannot hold the ${SPECIAL_TOKENS.length} special tokens`);
  }
  const allWords = new Map<string, number>();
  for (const text of texts) {
    for (const word of bertPreTokenize(bertNormalize(text))) allWords.set(word, (allWords.get(word) ?? 0) + 1);
  }
  // Characters are counted per distinct word, weighted by its count: far fewer string walks.
  const charCounts = new Map<string, number>();
  const wordCounts = new Map<string, number>();
  for (const [word, count] of allWords) {
    const chars = [...word];
    for (const ch of chars) charCounts.set(ch, (charCounts.get(ch) ?? 0) + count);
    if (chars.length > 1 && chars.length <= MAX_INPUT_CHARS_PER_WORD) wordCounts.set(word, count);
  }
  const vocab: string[] = [...SPECIAL_TOKENS];
  const specials = new Set<string>(SPECIAL_TOKENS);
  const charBudget = Math.floor((maxSize - vocab.length) / 2);
  const chars = [...charCounts.keys()]
    .sort(byCountThenText(charCounts))
    .slice(0, charBudget)
    .sort((a, b) => (a.codePointAt(0) as number) - (b.codePointAt(0) as number));
  vocab.push(...chars, ...chars.map((c) => SUBWORD_PREFIX + c));
  const words = [...wordCounts.keys()].filter((w) => !specials.has(w)).sort(byCountThenText(wordCounts));
  for (const word of words) {
    if (vocab.length >= maxSize) break;
    vocab.push(word);
  }
  return vocab;
}

/** The JSON `tokenizer.json` object of the tokenizers library format. */
export type TokenizerJson = Record<string, unknown>;

function specialId(vocab: readonly string[], token: string): number {
  const id = vocab.indexOf(token);
  if (id < 0) throw new RangeError(`vocabulary has no ${token}`);
  return id;
}

/**
 * `tokenizer.json` for the vocabulary, in the tokenizers library's format
 * (the same structure as bert-base-uncased's), so the Rust, Python and JS
 * tokenizers all load it. Truncation and padding are left to the caller.
 */
export function buildTokenizerJson(vocab: readonly string[]): TokenizerJson {
  const cls = specialId(vocab, '[CLS]');
  const sep = specialId(vocab, '[SEP]');
  const special = (id: string, typeId: number) => ({ SpecialToken: { id, type_id: typeId } });
  const sequence = (id: 'A' | 'B', typeId: number) => ({ Sequence: { id, type_id: typeId } });
  return {
    version: '1.0',
    truncation: null,
    padding: null,
    added_tokens: SPECIAL_TOKENS.map((content) => ({
      id: specialId(vocab, content),
      content,
      single_word: false,
      lstrip: false,
      rstrip: false,
      normalized: false,
      special: true,
    })),
    normalizer: { type: 'BertNormalizer', clean_text: true, handle_chinese_chars: true, strip_accents: null, lowercase: true },
    pre_tokenizer: { type: 'BertPreTokenizer' },
    post_processor: {
      type: 'TemplateProcessing',
      single: [special('[CLS]', 0), sequence('A', 0), special('[SEP]', 0)],
      pair: [special('[CLS]', 0), sequence('A', 0), special('[SEP]', 0), sequence('B', 1), special('[SEP]', 1)],
      special_tokens: {
        '[CLS]': { id: '[CLS]', ids: [cls], tokens: ['[CLS]'] },
        '[SEP]': { id: '[SEP]', ids: [sep], tokens: ['[SEP]'] },
      },
    },
    decoder: { type: 'WordPiece', prefix: SUBWORD_PREFIX, cleanup: true },
    model: {
      type: 'WordPiece',
      unk_token: '[UNK]',
      continuing_subword_prefix: SUBWORD_PREFIX,
      max_input_chars_per_word: MAX_INPUT_CHARS_PER_WORD,
      vocab: Object.fromEntries(vocab.map((token, id) => [token, id])),
    },
  };
}

/**
 * `tokenizer_config.json` naming the slow-tokenizer class and special tokens,
 * which transformers (Python and JS) read to pick padding and length limits.
 */
export function buildTokenizerConfig(vocab: readonly string[], maxPositions: number): Record<string, unknown> {
  const addedTokensDecoder: Record<string, unknown> = {};
  for (const content of SPECIAL_TOKENS) {
    addedTokensDecoder[String(specialId(vocab, content))] = {
      content,
      lstrip: false,
      normalized: false,
      rstrip: false,
      single_word: false,
      special: true,
    };
  }
  return {
    added_tokens_decoder: addedTokensDecoder,
    clean_up_tokenization_spaces: true,
    cls_token: '[CLS]',
    do_basic_tokenize: true,
    do_lower_case: true,
    mask_token: '[MASK]',
    model_max_length: maxPositions,
    never_split: null,
    pad_token: '[PAD]',
    sep_token: '[SEP]',
    strip_accents: null,
    tokenize_chinese_chars: true,
    tokenizer_class: 'BertTokenizer',
    unk_token: '[UNK]',
  };
}
