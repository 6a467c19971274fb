/**
 * The one word for each scenario in records, history, views and the
 * registry: the command's name (`generate`, `train`, `load`). A
 * classification record carries no kind (older readers expect none).
 *
 * Records written before the words were settled said `generation`,
 * `training` and `server` (the load test); every reader goes through
 * `recordKindOf`, so those records still read as the scenario they are.
 */

/** Words older records used, and the kind each one means now. */
const OLDER_WORDS: Readonly<Record<string, string>> = Object.freeze({ generation: 'generate', training: 'train', server: 'load' });

/** The record's scenario kind in today's word (older words mapped), or undefined for a classification record. */
export function recordKindOf(record: object): string | undefined {
  const kind = (record as { readonly kind?: unknown }).kind;
  if (typeof kind !== 'string') return undefined;
  return Object.hasOwn(OLDER_WORDS, kind) ? OLDER_WORDS[kind] : kind;
}

/** The record with its kind in today's word: what every reader of a results.json sees. */
export function withCurrentKind<T extends object>(record: T): T {
  const kind = recordKindOf(record);
  return kind === (record as { readonly kind?: unknown }).kind ? record : { ...record, kind };
}
