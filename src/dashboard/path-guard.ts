import { readdirSync, realpathSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { resolveInside } from '../core/path-inside.js';
import { readRegularFileSync } from '../core/regular-file.js';
import { FieldError } from '../core/field-error.js';

/** Files a model or dataset folder may hold before the guard refuses to walk it (a request must not make it read a disk). */
export const MAX_FOLDER_ENTRIES = 20_000;
/** Folder depth the walk follows. */
const MAX_DEPTH = 16;

/**
 * Keeps model and dataset paths sent to the dashboard inside the folders it
 * was started with (`--root`, default the working folder, and `--allow`).
 * A path is resolved by the rule the workers' cache uses (core/path-inside.ts):
 * against the root and then through every symlink, so neither `../` nor a
 * link can reach outside. That rule covers every file a model or dataset
 * names, not only its folder: each file under the folder (symlinks at any
 * depth, followed), and the weight shards a tfjs `model.json` names. A
 * missing path is refused too, so the message arrives before the run is
 * queued rather than after.
 */
export class PathGuard {
  readonly roots: readonly string[];

  constructor(root: string, allowed: readonly string[] = []) {
    this.roots = [root, ...allowed].map((dir) => {
      try {
        return realpathSync(resolve(dir));
      } catch {
        throw new FieldError(dir === root ? 'root' : 'allow', `folder ${dir} does not exist`, 'pass an existing folder');
      }
    });
  }

  /** The base relative paths are resolved against. */
  get root(): string {
    return this.roots[0] as string;
  }

  /**
   * A model reference: a path checked like any other, with every file it
   * names, or a Hub id (`org/name`) when nothing of that name exists under
   * the root; a Hub id is downloaded into the Hugging Face cache, never read
   * from the roots.
   */
  checkModel(field: string, value: string): string {
    const hubId = /^[\w.-]+\/[\w.-]+$/.test(value) && !value.startsWith('.');
    let real: string;
    try {
      real = this.check(field, value);
    } catch (err) {
      if (hubId && err instanceof FieldError && /does not exist/.test(err.message)) return value;
      throw err;
    }
    return real;
  }

  /** The real absolute path of `value`, with every file under it when it is a folder, or a FieldError naming `field`. */
  check(field: string, value: string): string {
    if (value.includes('\0')) throw new FieldError(field, `${field} contains a NUL character`, 'send a plain path');
    const target = resolve(this.root, value);
    const outcome = resolveInside(this.roots, target);
    if (!outcome.ok) {
      if (outcome.why === 'broken-link') throw new FieldError(field, `${field} ${JSON.stringify(value)} leads through a broken symbolic link`, 'give a path relative to the folder the dashboard was started in');
      throw this.outside(field, value);
    }
    if (!outcome.exists) throw new FieldError(field, `${field} ${JSON.stringify(value)} does not exist under ${this.root}`, 'give a path relative to the folder the dashboard was started in');
    if (statSync(outcome.path).isDirectory()) this.checkFolder(field, value, outcome.path);
    return outcome.path;
  }

  /** Every file under `dir` (links followed at any depth) and every shard its model.json names must resolve inside the roots. */
  private checkFolder(field: string, value: string, dir: string): void {
    let entries = 0;
    const seen = new Set<string>();
    const walk = (folder: string, depth: number): void => {
      if (seen.has(folder)) return;
      seen.add(folder);
      if (depth > MAX_DEPTH) throw new FieldError(field, `${field} ${JSON.stringify(value)} nests folders deeper than ${MAX_DEPTH} levels`, 'send a model or dataset folder of ordinary depth');
      let names: string[];
      try {
        names = readdirSync(folder);
      } catch {
        throw new FieldError(field, `${field} ${JSON.stringify(value)} holds a folder the dashboard cannot list (${folder})`, 'fix its permissions');
      }
      for (const name of names) {
        if (++entries > MAX_FOLDER_ENTRIES) throw new FieldError(field, `${field} ${JSON.stringify(value)} holds more than ${MAX_FOLDER_ENTRIES} files`, 'send a model or dataset folder, not a whole disk');
        const path = join(folder, name);
        const real = this.named(field, value, path);
        if (statSync(real, { throwIfNoEntry: false })?.isDirectory()) walk(real, depth + 1);
      }
    };
    walk(dir, 0);
    // A GraphModel's shards are read from wherever model.json says, even outside the folder: each must resolve inside the roots too.
    const modelJson = join(dir, 'model.json');
    let manifest: unknown;
    try {
      manifest = (JSON.parse(readRegularFileSync(modelJson, 'utf8')) as { weightsManifest?: unknown }).weightsManifest;
    } catch {
      return;
    }
    if (!Array.isArray(manifest)) return;
    for (const group of manifest as { paths?: unknown }[]) {
      for (const p of Array.isArray(group?.paths) ? (group.paths as unknown[]) : []) {
        if (typeof p === 'string') this.named(field, value, resolve(dir, p));
      }
    }
  }

  /** The real path of a file a model or dataset names, or the FieldError that says it leads outside the roots. */
  private named(field: string, value: string, path: string): string {
    const outcome = resolveInside(this.roots, path);
    if (outcome.ok) return outcome.path;
    const how = outcome.why === 'climbs' ? 'names' : outcome.why === 'link-out' ? 'holds a symbolic link out to reach' : 'holds a broken or unreadable link at';
    throw new FieldError(
      field,
      `${field} ${JSON.stringify(value)} ${how} ${JSON.stringify(path)}, outside the folders this dashboard may read (${this.roots.join(', ')})`,
      'copy the files into the model folder under --root, or restart `inferbench serve` with --allow <folder>',
    );
  }

  private outside(field: string, value: string): FieldError {
    return new FieldError(
      field,
      `${field} ${JSON.stringify(value)} is outside the folders this dashboard may read (${this.roots.join(', ')})`,
      'move it under --root, or restart `inferbench serve` with --allow <folder>',
    );
  }
}
