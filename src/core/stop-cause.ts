/**
 * What stopped a sweep, in the words results record: `SIGTERM`, `SIGHUP`,
 * `Ctrl-C` (SIGINT). The CLI's stop handler aborts the run's AbortSignal
 * with a StopRequest and records it here, the isolated children get it over
 * IPC, and every "interrupted (…)" reason reads it from here, so a run
 * stopped by Kubernetes or `timeout` says SIGTERM, not Ctrl-C. One cause
 * per process: the CLI runs one sweep, a child serves one job.
 */

/** The reason an AbortController is aborted with when a signal (or a user) stops a run. */
export class StopRequest {
  constructor(
    /** How results name it: `SIGTERM`, `SIGHUP`, `Ctrl-C`, `cancelled`. */
    readonly label: string,
    /** The exit code the CLI ends with: 128 + the signal number. */
    readonly exitCode: number,
  ) {}
}

/** Signals that stop a measuring command, with their numbers (Linux, macOS). */
export const STOP_SIGNALS = { SIGINT: 2, SIGTERM: 15, SIGHUP: 1 } as const;
export type StopSignal = keyof typeof STOP_SIGNALS;

/** How a stop signal is named in results: Ctrl-C for SIGINT (what the user pressed), else the signal's name. */
export function stopLabel(sig: StopSignal): string {
  return sig === 'SIGINT' ? 'Ctrl-C' : sig;
}

let cause = 'Ctrl-C';

/** Records what stopped this process's sweep (the stop handler and the child's IPC abort call it). */
export function setStopCause(label: string): void {
  cause = label;
}

/** What stopped this process's sweep, `Ctrl-C` unless told otherwise. */
export function stopCause(): string {
  return cause;
}

/** `interrupted (SIGTERM)`: the start of every reason of a cell or probe a stop cut short. */
export function interruptedBy(): string {
  return `interrupted (${cause})`;
}

/** The reason of a cell a sweep never started because a stop ended it (classification and generation alike). */
export function notRunInterrupted(): string {
  return `not run: the sweep was interrupted (${cause})`;
}

/** True for a reason written by interruptedBy or notRunInterrupted, whatever stopped the sweep. */
export function isInterruptedReason(reason: string): boolean {
  return reason.startsWith('interrupted (') || reason.startsWith('not run: the sweep was interrupted (');
}
