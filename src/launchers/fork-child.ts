/**
 * The process mechanics every child-process launcher shares: fork an entry
 * module, send it one job, relay its cells as they come, and turn a crash or
 * an early exit into a failed cell for every key it did not finish. The
 * promise never rejects for a child failure, so the sweep goes on.
 */
import { STOP_SIGNALS, setStopCause, stopCause, stopLabel, type StopSignal } from '../core/stop-cause.js';
import { fork, type ForkOptions } from 'node:child_process';
import { forwardStderr, libraryLogsWanted } from '../core/library-logs.js';
import { parentDeathPrefix } from '../core/parent-death.js';

/** Child → parent messages of any scenario: the one protocol for progress, results, the end and an error. */
export type ForkedChildMessage<Key, Result> =
  | { readonly type: 'cell-start'; readonly key: Key }
  | { readonly type: 'result'; readonly result: Result }
  | { readonly type: 'done' }
  | { readonly type: 'fatal'; readonly message: string; readonly userError: boolean; readonly fix?: string };

/** Parent → child messages. */
export type ForkedParentMessage<Job> = { readonly type: 'job'; readonly job: Job } | { readonly type: 'abort'; readonly cause?: string };

export interface ForkedJob<Job, Key, Result> {
  /** Absolute path of the compiled child entry module. */
  readonly entry: string;
  /** Command-line arguments of the child; for `ps` only, the job travels as a message. */
  readonly args?: readonly string[];
  readonly job: Job;
  readonly keys: readonly Key[];
  /** Identity of a key, to tell which keys the child finished. */
  readonly keyId: (key: Key) => string;
  readonly resultId: (result: Result) => string;
  /** The result recorded for a key the child did not finish, with why. */
  readonly failed: (key: Key, reason: string) => Result;
}

export interface ForkedHooks<Key, Result> {
  readonly onStart: (key: Key) => void;
  readonly onResult: (result: Result) => Promise<void>;
}

function exitText(code: number | null, signal: NodeJS.Signals | null): string {
  return signal ? `was killed by ${signal}` : `exited with code ${code}`;
}

/**
 * stdio index of the lifeline pipe: the parent keeps it open and never
 * writes; the child exits when it reads EOF there (the parent died, even by
 * SIGKILL). See lifeline.ts.
 */
export const PARENT_LIFELINE_FD = 4;

/**
 * How a child is started so that it dies with its parent. The lifeline
 * (lifeline.ts) only works while the child's event loop runs, and a
 * training step or a tfjs batch can hold it for seconds; where setpriv can
 * set the kernel's parent-death signal (core/parent-death.ts), the child is
 * started through it, and Node is exec'd in place. Elsewhere the lifeline
 * alone watches.
 */
function startOptions(): Pick<ForkOptions, 'execPath' | 'execArgv'> {
  const prefix = parentDeathPrefix();
  return prefix ? { execPath: prefix[0] as string, execArgv: [...prefix.slice(1), process.execPath, ...process.execArgv] } : {};
}

export function forkChild<Job, Key, Result>(spec: ForkedJob<Job, Key, Result>, hooks: ForkedHooks<Key, Result>, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve) => {
    // The engine's native library logs while it loads (libtensorflow's banners); its stderr passes through a filter unless --verbose.
    const filtered = !libraryLogsWanted();
    const child = fork(spec.entry, [...(spec.args ?? [])], { ...startOptions(), stdio: ['ignore', 'inherit', filtered ? 'pipe' : 'inherit', 'ipc', 'pipe'], serialization: 'advanced' });
    const stderrDone = filtered && child.stderr ? forwardStderr(child.stderr, process.stderr) : Promise.resolve();
    const lifeline = child.stdio[PARENT_LIFELINE_FD];
    // A pipe error here (the child gone first) is not ours to report; the exit handler does.
    lifeline?.on('error', () => undefined);
    const done = new Set<string>();
    let current: string | undefined;
    let fatal: string | undefined;
    let chain = Promise.resolve();
    const onAbort = () => {
      if (child.connected) child.send({ type: 'abort', cause: stopCause() } satisfies ForkedParentMessage<Job>);
    };
    signal?.addEventListener('abort', onAbort);
    child.on('message', (message: ForkedChildMessage<Key, Result>) => {
      chain = chain.then(async () => {
        if (message.type === 'cell-start') {
          current = spec.keyId(message.key);
          hooks.onStart(message.key);
        } else if (message.type === 'result') {
          done.add(spec.resultId(message.result));
          await hooks.onResult(message.result);
        } else if (message.type === 'fatal') {
          fatal = message.message;
        }
      });
    });
    child.on('error', (err) => {
      fatal ??= `could not start the isolated process: ${err.message}`;
    });
    child.on('exit', (code, sig) => {
      signal?.removeEventListener('abort', onAbort);
      lifeline?.destroy();
      void chain.then(async () => {
        for (const key of spec.keys) {
          const id = spec.keyId(key);
          if (done.has(id)) continue;
          const where = current === id ? ' while measuring this cell' : ' before this cell ran';
          await hooks.onResult(spec.failed(key, fatal ?? `isolated process ${exitText(code, sig)}${where}`));
        }
        await stderrDone;
        resolve();
      });
    });
    if (signal?.aborted) onAbort();
    try {
      child.send({ type: 'job', job: spec.job } satisfies ForkedParentMessage<Job>);
    } catch (err) {
      // A job that cannot be sent (a value that cannot be cloned) must not leave the child waiting for it forever, keeping us alive.
      fatal ??= `could not send the job to the isolated process: ${err instanceof Error ? err.message : String(err)}`;
      child.kill('SIGKILL');
    }
  });
}

/**
 * The child side: runs `work` on the job the parent sends, relays cells,
 * exits 0 when done and 1 after a fatal error (sent to the parent first).
 * A disconnected parent (a second Ctrl-C) ends the child at once.
 */
export function serveForkedJob<Job, Key, Result>(
  work: (job: Job, io: { readonly signal: AbortSignal; start: (key: Key) => void; result: (result: Result) => Promise<void> }) => Promise<void>,
  isUserError: (err: unknown) => err is Error & { fix?: string },
): void {
  const controller = new AbortController();
  const send = (message: ForkedChildMessage<Key, Result>): Promise<void> =>
    new Promise((resolve) => {
      if (!process.send) return resolve();
      process.send(message, undefined, {}, () => resolve());
    });
  // The same signals stop the child as the parent (a terminal's Ctrl-C, a process group's SIGTERM or SIGHUP reach both): after the current unit.
  for (const sig of Object.keys(STOP_SIGNALS) as StopSignal[]) {
    process.on(sig, () => {
      setStopCause(stopLabel(sig));
      controller.abort();
    });
  }
  process.on('disconnect', () => process.exit(130));
  process.on('message', (message: ForkedParentMessage<Job>) => {
    if (message.type === 'abort') {
      if (message.cause) setStopCause(message.cause);
      controller.abort();
      return;
    }
    void (async () => {
      try {
        await work(message.job, {
          signal: controller.signal,
          start: (key) => void send({ type: 'cell-start', key }),
          result: (result) => send({ type: 'result', result }),
        });
        await send({ type: 'done' });
        process.exit(0);
      } catch (err) {
        const user = isUserError(err);
        await send({ type: 'fatal', message: err instanceof Error ? err.message : String(err), userError: user, ...(user && err.fix ? { fix: err.fix } : {}) });
        process.exit(1);
      }
    })();
  });
}
