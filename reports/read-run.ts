/**
 * Reads a RunRecord back from disk, from a run folder or its results.json,
 * for `inferbench compare` and anything else that re-renders old runs. Every
 * way the path can be wrong is a UserError naming the path.
 */
import { readFile, stat } from 'node:fs/promises';
import * as path from 'node:path';
import { UserError, hasErrorCode } from '../src/core/errors.js';
import type { RunRecord } from '../src/core/results.js';
import { withCurrentWords } from '../src/core/record-kind.js';

const FIX = 'pass a run folder written by `inferbench run` (<out>/<run-id>/) or the results.json inside it';

/** The run and the results.json it came from. */
export interface RunFromFile {
  readonly record: RunRecord;
  readonly file: string;
}

function unreadable(target: string, err: unknown): UserError {
  if (hasErrorCode(err, 'ENOENT') || hasErrorCode(err, 'ENOTDIR')) return new UserError(`run not found: ${target}`, FIX);
  if (hasErrorCode(err, 'EACCES') || hasErrorCode(err, 'EPERM')) {
    return new UserError(`cannot read run ${target}: permission denied`, 'fix its permissions, or copy the run folder somewhere readable');
  }
  return new UserError(`cannot read run ${target}: ${err instanceof Error ? err.message : String(err)}`, FIX);
}

/** Reads and checks `<target>/results.json`, or `target` itself when it is a file. */
export async function readRunRecord(target: string): Promise<RunFromFile> {
  let file = target;
  try {
    if ((await stat(target)).isDirectory()) file = path.join(target, 'results.json');
  } catch (err) {
    throw unreadable(target, err);
  }
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (err) {
    if (file !== target && hasErrorCode(err, 'ENOENT')) throw new UserError(`no results.json in ${target}`, FIX);
    throw unreadable(file, err);
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (err) {
    const why = err instanceof Error ? err.message : String(err);
    throw new UserError(`cannot read run ${file}: it is not valid JSON (${why})`, FIX);
  }
  const record = parsed as Partial<RunRecord> | null;
  if (typeof record !== 'object' || record === null || record.schemaVersion !== 1 || !Array.isArray(record.cells) || typeof record.id !== 'string') {
    throw new UserError(`cannot read run ${file}: it is not an inferbench results file (schemaVersion 1 with cells)`, FIX);
  }
  // An older record's kind (`generation`, `training`, `server`) and fields (`loadMs`) read as today's words.
  return { record: withCurrentWords(record as RunRecord), file };
}
