import { randomBytes } from 'node:crypto';
import { mkdir } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { UserError, hasErrorCode } from '../core/errors.js';
import type { EnvironmentInfo, ModelInfo, RunRecordOf } from '../core/results.js';

/**
 * A run id that sorts by time and cannot collide between two runs started in
 * the same second: `2026-11-22T13-45-01Z-3fa9c2`.
 */
export function newRunId(now: Date = new Date()): string {
  const stamp = now.toISOString().replace(/\.\d+Z$/, 'Z').replace(/:/g, '-');
  return `${stamp}-${randomBytes(3).toString('hex')}`;
}

/** Creates `<out>/<id>/`, turning permission and disk errors into a message about `--out`. */
export async function createRunDir(out: string, id: string): Promise<string> {
  const dir = resolve(out, id);
  try {
    await mkdir(dir, { recursive: true });
  } catch (err) {
    const why = hasErrorCode(err, 'ENOSPC') ? 'the disk is full' : (err as Error).message;
    throw new UserError(`cannot create the output folder ${dir}: ${why}`, 'pass --out a writable folder with free space');
  }
  return dir;
}

/**
 * The record of a run being built cell by cell. `snapshot()` gives a
 * complete RunRecord at any moment, so partial results can be written after
 * every cell and after an interruption.
 */
export class RunSession<C> {
  readonly cells: C[] = [];
  private state: RunRecordOf<C>['state'] = 'running';
  private finishedAt: string | null = null;
  readonly startedAt = new Date().toISOString();

  constructor(
    readonly id: string,
    readonly dir: string,
    readonly config: Readonly<Record<string, unknown>>,
    readonly environment: EnvironmentInfo,
    readonly models: readonly ModelInfo[],
    /** `generation` for generate runs; classification records carry no kind. */
    readonly kind?: 'generation',
  ) {}

  finish(state: 'completed' | 'interrupted'): void {
    this.state = state;
    this.finishedAt = new Date().toISOString();
  }

  snapshot(): RunRecordOf<C> & { readonly kind?: 'generation' } {
    return {
      schemaVersion: 1,
      ...(this.kind ? { kind: this.kind } : {}),
      id: this.id,
      state: this.state,
      startedAt: this.startedAt,
      finishedAt: this.finishedAt,
      config: this.config,
      environment: this.environment,
      models: this.models,
      cells: [...this.cells],
    };
  }

  /** Paths of the files a run writes, for the closing message. */
  static fileNames(png: boolean): string[] {
    return ['results.json', 'results.csv', ...(png ? ['comparison.png'] : [])];
  }

  path(name: string): string {
    return join(this.dir, name);
  }
}
