/**
 * The one word for each scenario in records, history, views and the
 * registry: the command's name (`generate`, `train`, `load`). A
 * classification record carries no kind (older readers expect none).
 *
 * Records written before the words were settled said `generation`,
 * `training` and `server` (the load test); every reader goes through
 * `recordKindOf`, so those records still read as the scenario they are.
 *
 * Records written before an engine's load was called its open (so that
 * "load" names only the scenario) store `loadMs` and `afterLoad` where
 * today's say `openMs` and `afterOpen`; `cellInCurrentWords` renames them
 * as a cell is read (results.json through `withCurrentWords`, the history's
 * cells), so every reader sees today's fields alone.
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

/** Fields older records used for an engine's open, and today's name of each. */
const OLDER_FIELDS: Readonly<Record<string, string>> = Object.freeze({ loadMs: 'openMs', afterLoad: 'afterOpen' });

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** `o` with its older field names renamed (today's name wins where both are there); `o` itself when it has none. */
function renamedFields(o: Record<string, unknown>): Record<string, unknown> {
  const older = Object.keys(OLDER_FIELDS).filter((name) => Object.hasOwn(o, name));
  if (older.length === 0) return o;
  const out: Record<string, unknown> = { ...o };
  for (const name of older) {
    const now = OLDER_FIELDS[name] as string;
    if (!Object.hasOwn(out, now)) out[now] = out[name];
    delete out[name];
  }
  return out;
}

/** `o[key]` put through `f` when it is an object; `o` itself when nothing changed. */
function withPart(o: Record<string, unknown>, key: string, f: (part: Record<string, unknown>) => Record<string, unknown>): Record<string, unknown> {
  const part = o[key];
  if (!isObject(part)) return o;
  const next = f(part);
  return next === part ? o : { ...o, [key]: next };
}

/** A round or a cell with its cold start in today's fields. */
function withColdStart(o: Record<string, unknown>): Record<string, unknown> {
  return withPart(renamedFields(o), 'coldStart', renamedFields);
}

/**
 * A cell of any scenario with today's field names: its open time
 * (`loadMs`), its cold start's and each round's, and a browser row's page
 * heap after the open (`session.browser.memory.afterLoad`).
 */
export function cellInCurrentWords<T>(cell: T): T {
  if (!isObject(cell)) return cell;
  let c = withColdStart(cell);
  const rounds = c['rounds'];
  if (Array.isArray(rounds) && rounds.some(isObject)) {
    const mapped = rounds.map((r: unknown) => (isObject(r) ? withColdStart(r) : r));
    if (mapped.some((r, i) => r !== rounds[i])) c = { ...c, rounds: mapped };
  }
  c = withPart(c, 'session', (session) => withPart(session, 'browser', (browser) => withPart(browser, 'memory', renamedFields)));
  return c as T;
}

/** The record with its kind and its cells' fields in today's words: what every reader of a results.json sees. */
export function withCurrentWords<T extends object>(record: T): T {
  const current = withCurrentKind(record);
  const cells = (current as { readonly cells?: unknown }).cells;
  if (!Array.isArray(cells)) return current;
  const mapped = cells.map((cell: unknown) => cellInCurrentWords(cell));
  return mapped.some((cell, i) => cell !== cells[i]) ? { ...current, cells: mapped } : current;
}
