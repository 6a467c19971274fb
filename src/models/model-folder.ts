import { existsSync, statSync } from 'node:fs';
import { basename, dirname } from 'node:path';
import { UserError } from '../core/errors.js';
import { readRegularFileSync } from '../core/regular-file.js';

/**
 * Refuses a --model path that is missing or is a file. A file is the
 * common slip (`--model model.onnx`), and "does not exist" sent users
 * looking for a typo; the message says a folder is needed, and for an
 * .onnx file which folder that is.
 */
export function requireModelFolder(dir: string, fix: string): void {
  if (!existsSync(dir)) throw new UserError(`model folder ${dir} does not exist`, fix);
  if (statSync(dir).isDirectory()) return;
  if (/\.onnx$/i.test(dir)) {
    const parent = dirname(dir);
    const folder = basename(parent) === 'onnx' ? dirname(parent) : null;
    throw new UserError(
      `--model ${dir} is an .onnx file, but --model takes the model's folder`,
      folder !== null
        ? `pass its model folder: --model ${folder} (the folder holding config.json, tokenizer.json and onnx/${basename(dir)})`
        : `pass its model folder: the folder holding config.json, tokenizer.json and onnx/${basename(dir)} (put the file in an onnx/ subfolder there)`,
    );
  }
  throw new UserError(`--model ${dir} is a file, not a folder`, fix);
}

/**
 * A JSON file of a model folder (config, tokenizer); a file that is not a
 * regular file (a FIFO would block forever) or not JSON is a UserError
 * naming it.
 */
export function readModelJson<T>(path: string): T {
  let text: string;
  try {
    text = readRegularFileSync(path, 'utf8');
  } catch (err) {
    if (err instanceof UserError) throw err;
    throw new UserError(`cannot read ${path}: ${(err as Error).message}`, 'check that the model folder is complete and not corrupt');
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (err) {
    throw new UserError(`cannot read ${path}: ${(err as Error).message}`, 'check that the model folder is complete and not corrupt');
  }
  // `null`, `[]` or `5` parse, then fail somewhere deep (a library's "must be a valid object"): refused here, naming the file.
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw new UserError(`cannot read ${path}: it holds ${parsed === null ? 'null' : Array.isArray(parsed) ? 'a list' : `a ${typeof parsed}`}, not a JSON object`, 'check that the model folder is complete and not corrupt');
  }
  return parsed as T;
}
