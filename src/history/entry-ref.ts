import { UserError } from '../errors.js';
import type { HistoryStore } from './history-store.js';

/**
 * Resolves what a user typed for a benchmark: the number `inferbench list`
 * shows, `#3`, or the run folder id (`2026-11-22T13-45-01Z-3fa9c2`).
 */
export async function resolveEntryId(store: HistoryStore, ref: string, command: string): Promise<number> {
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
