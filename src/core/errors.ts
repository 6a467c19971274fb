/**
 * Errors the user can fix. The CLI prints `message` and `fix` on one screen
 * and exits non-zero without a stack trace; anything else is a bug and keeps
 * its stack so it can be reported.
 */
export class UserError extends Error {
  override readonly name = 'UserError';
  /** How to fix the problem, phrased as an instruction. */
  readonly fix: string | undefined;
  /** Process exit code the CLI uses for this error. */
  readonly exitCode: number;

  constructor(message: string, fix?: string, exitCode = 2) {
    super(message);
    this.fix = fix;
    this.exitCode = exitCode;
  }
}

/**
 * Thrown while preparing a sweep cell when the cell cannot run on this
 * machine or with this model (engine unavailable, unsupported op). The runner
 * records the cell as `skipped` with this reason instead of `errored`, because
 * nothing went wrong: the combination simply does not exist here.
 */
export class CellSkip extends Error {
  override readonly name = 'CellSkip';
}

/** True when `err` is a Node system error with the given code (ENOENT, ENOSPC…). */
export function hasErrorCode(err: unknown, code: string): boolean {
  return typeof err === 'object' && err !== null && (err as { code?: unknown }).code === code;
}

/** A one-line description of any thrown value, for result rows and logs. */
export function describeError(err: unknown): string {
  if (err instanceof Error) return err.message.split('\n')[0] ?? err.name;
  return String(err);
}

/**
 * How a cell whose work threw ends, in every scenario: skipped with the
 * CellSkip's reason (it cannot run here, which is no fault), else errored
 * with the error described.
 */
export function cellFailure(err: unknown): { readonly state: 'skipped'; readonly reason: string } | { readonly state: 'errored'; readonly reason: string } {
  return err instanceof CellSkip ? { state: 'skipped', reason: err.message } : { state: 'errored', reason: describeError(err) };
}
