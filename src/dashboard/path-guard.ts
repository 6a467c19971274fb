import { realpathSync } from 'node:fs';
import { isAbsolute, relative, resolve, sep } from 'node:path';
import { FieldError } from './field-error.js';

function inside(root: string, target: string): boolean {
  const rel = relative(root, target);
  return rel === '' || (!rel.startsWith(`..${sep}`) && rel !== '..' && !isAbsolute(rel));
}

/**
 * Keeps model and dataset paths sent to the dashboard inside the folders it
 * was started with (`--root`, default the working folder, and `--allow`).
 * A path is resolved against the root and then through every symlink, so
 * neither `../` nor a link can reach outside; a missing path is refused too,
 * so the message arrives before the run is queued rather than after.
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

  /** The real absolute path of `value`, or a FieldError naming `field`. */
  /**
   * A model reference: a path checked like any other, or a Hub id
   * (`org/name`) when nothing of that name exists under the root; a Hub id
   * is downloaded into the Hugging Face cache, never read from the roots.
   */
  checkModel(field: string, value: string): string {
    const hubId = /^[\w.-]+\/[\w.-]+$/.test(value) && !value.startsWith('.');
    try {
      return this.check(field, value);
    } catch (err) {
      if (hubId && err instanceof FieldError && /does not exist/.test(err.message)) return value;
      throw err;
    }
  }

  check(field: string, value: string): string {
    if (value.includes('\0')) throw new FieldError(field, `${field} contains a NUL character`, 'send a plain path');
    const target = resolve(this.root, value);
    let real: string;
    try {
      real = realpathSync(target);
    } catch {
      if (!this.roots.some((root) => inside(root, target))) throw this.outside(field, value);
      throw new FieldError(field, `${field} ${JSON.stringify(value)} does not exist under ${this.root}`, 'give a path relative to the folder the dashboard was started in');
    }
    if (!this.roots.some((root) => inside(root, real))) throw this.outside(field, value);
    return real;
  }

  private outside(field: string, value: string): FieldError {
    return new FieldError(
      field,
      `${field} ${JSON.stringify(value)} is outside the folders this dashboard may read (${this.roots.join(', ')})`,
      'move it under --root, or restart `inferbench serve` with --allow <folder>',
    );
  }
}
