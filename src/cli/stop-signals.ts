import { removeTemporariesSync } from '../core/temporaries.js';
import { STOP_SIGNALS, StopRequest, setStopCause, stopLabel, type StopSignal } from '../core/stop-cause.js';

/** Exit code of a run stopped by Ctrl-C (128 + SIGINT), as shells report it. */
export const EXIT_INTERRUPTED = 130;

/** The exit code of a stop by `sig`: 128 + its number, as shells and Kubernetes read it. */
export function stopExitCode(sig: StopSignal): number {
  return 128 + STOP_SIGNALS[sig];
}

/** What a stop handler gives its command. */
export interface StopHandle {
  /** Aborted, with a StopRequest as its reason, by the first stop signal. */
  readonly signal: AbortSignal;
  /** The exit code of the stop that came (128 + signo), or null while none came. */
  exitCode(): number | null;
  /** Removes the handlers. */
  release(): void;
}

/**
 * The one stop handler of every command. SIGINT (Ctrl-C), SIGTERM
 * (Kubernetes, systemd, `timeout`, CI runners) and SIGHUP (a closed
 * terminal) all do the same: the first aborts `signal` so the command stops
 * after the current `unit` of work and still writes what it measured, and
 * records the signal as the stop's cause (`interrupted (SIGTERM)`); a
 * second one removes this process's open temporaries (temporaries.ts) and
 * exits at once with 128 + its number; with `quitAtOnce` (export, which
 * has no unit to finish) the first one does. Only whole files were ever
 * renamed into place, so quitting at once leaves no half-written file.
 */
export function stopOnSignals(unit: string, options: { readonly quitAtOnce?: boolean } = {}): StopHandle {
  const controller = new AbortController();
  let code: number | null = null;
  const handlers = (Object.keys(STOP_SIGNALS) as StopSignal[]).map((sig) => {
    const handler = () => {
      if (code !== null || options.quitAtOnce) {
        if (code === null) process.stderr.write(`\ninferbench: ${stopLabel(sig)}: stopped; nothing half-written is left\n`);
        removeTemporariesSync();
        process.exit(stopExitCode(sig));
      }
      code = stopExitCode(sig);
      const label = stopLabel(sig);
      setStopCause(label);
      process.stderr.write(`\ninferbench: ${label}: stopping after the current ${unit} (${sig === 'SIGINT' ? 'Ctrl-C' : 'a signal'} again to quit now)…\n`);
      controller.abort(new StopRequest(label, code));
    };
    process.on(sig, handler);
    return [sig, handler] as const;
  });
  return {
    signal: controller.signal,
    exitCode: () => code,
    release: () => {
      for (const [sig, handler] of handlers) process.off(sig, handler);
    },
  };
}
