import { historyLeftOutOfPack } from '../../core/offline-pack.js';
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { UserError } from '../../core/errors.js';
import type { HistoryStore as Store } from './history-store.js';

/**
 * Resolves what a user typed for a benchmark: the number `inferbench list`
 * shows, `#3`, or the run folder id (`2026-11-22T13-45-01Z-3fa9c2`).
 */
export async function resolveEntryId(store: Store, ref: string, command: string): Promise<number> {
  const text = ref.trim().replace(/^#/, '');
  if (/^\d+$/.test(text)) return Number(text);
  const id = await store.findByRunId(text);
  if (id === null) {
    throw new UserError(`no benchmark "${ref}" in ${store.file}`, `pass \`inferbench ${command}\` a number from \`inferbench list\` (with the same --out as the run)`);
  }
  return id;
}

/** The positional ids a command needs, or a UserError saying how to call it. */
export function requirePositionals(positionals: readonly string[], count: number, usage: string): string[] {
  if (positionals.length !== count) {
    const what = positionals.length < count ? 'needs' : 'takes only';
    throw new UserError(`\`${usage.split(' [')[0]}\` ${what} ${count === 1 ? 'one benchmark id' : `${count} benchmark ids`}`, `write ${usage}; \`inferbench list\` shows the ids`);
  }
  return [...positionals];
}

/**
 * What `inferbench compare` reads for one argument: an existing path as
 * given; otherwise a history id (`3`, `#3`) or run folder id looked up in
 * the history of `out`, turned into that run's folder. The store is only
 * opened when a path does not exist, so comparing two folders never needs it.
 */
export async function resolveRunPath(out: string, ref: string): Promise<string> {
  if (existsSync(ref)) return ref;
  const leftOut = historyLeftOutOfPack(`compare ${ref}`);
  if (leftOut) throw leftOut;
  const { HistoryStore, HISTORY_FILE } = await import('./history-store.js');
  const looksLikeId = /^#?\d+$/.test(ref.trim());
  if (!existsSync(join(out, HISTORY_FILE))) {
    if (!looksLikeId) return ref; // not in any history: let the reader report the missing path
    throw new UserError(`no benchmark history in ${resolve(out)} to find benchmark ${ref} in`, 'pass the --out folder the run was written to, or a run folder path');
  }
  const store = new HistoryStore(out);
  const id = looksLikeId ? Number(ref.trim().replace(/^#/, '')) : await store.findByRunId(ref.trim());
  if (id === null) return ref;
  const entry = await store.require(id);
  if (entry.dir === null) throw new UserError(`benchmark ${id} has not started yet, so there is nothing to compare`, 'wait for it to run, or pick another id from `inferbench list`');
  return entry.dir;
}
