/**
 * The isolated launcher: runs a launch's job in a fresh Node process
 * through the one child entry (scenario-child.ts), whatever the scenario,
 * so one engine's allocations and crashes never touch another's figures.
 * It forks the entry, sends the job (its kind, its plain-data payload, the
 * module that registers the kind, the engine modules to register), relays
 * the cells as they come, and turns a crash or an early exit into a failed
 * result for every key the child did not finish. The promise never rejects
 * for a child failure, so the sweep goes on.
 */
import { fork, type ForkOptions } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { Launch, Launcher, LaunchHooks } from '../core/launch-jobs.js';
import { forwardStderr, libraryLogsWanted } from '../core/library-logs.js';
import { parentDeathPrefix } from '../core/parent-death.js';
import { stopCause } from '../core/stop-cause.js';
import { PARENT_LIFELINE_FD, type ChildJobMessage, type ForkedChildMessage, type ForkedParentMessage } from './child-protocol.js';

const CHILD_ENTRY = fileURLToPath(new URL('./scenario-child.js', import.meta.url));

function exitText(code: number | null, signal: NodeJS.Signals | null): string {
  return signal ? `was killed by ${signal}` : `exited with code ${code}`;
}

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

/** Runs one launch in a fresh child process; resolves once every key has a result. */
function launchInChild<Key, Result>(launch: Launch<Key, Result>, hooks: LaunchHooks<Key, Result>, signal: AbortSignal | undefined, engineModules: readonly string[]): Promise<void> {
  return new Promise<void>((resolve) => {
    // The engine's native library logs while it loads (libtensorflow's banners); its stderr passes through a filter unless --verbose.
    const filtered = !libraryLogsWanted();
    // The kind on the command line only names the child in `ps`; the job message is what the child reads.
    const child = fork(CHILD_ENTRY, [launch.kind], { ...startOptions(), stdio: ['ignore', 'inherit', filtered ? 'pipe' : 'inherit', 'ipc', 'pipe'], serialization: 'advanced' });
    const stderrDone = filtered && child.stderr ? forwardStderr(child.stderr, process.stderr) : Promise.resolve();
    const lifeline = child.stdio[PARENT_LIFELINE_FD];
    // A pipe error here (the child gone first) is not ours to report; the exit handler does.
    lifeline?.on('error', () => undefined);
    const done = new Set<string>();
    let current: string | undefined;
    let fatal: string | undefined;
    let chain = Promise.resolve();
    const onAbort = () => {
      if (child.connected) child.send({ type: 'abort', cause: stopCause() } satisfies ForkedParentMessage);
    };
    signal?.addEventListener('abort', onAbort);
    child.on('message', (message: ForkedChildMessage<Key, Result>) => {
      chain = chain.then(async () => {
        if (message.type === 'cell-start') {
          current = launch.keyId(message.key);
          hooks.onStart(message.key);
        } else if (message.type === 'result') {
          done.add(launch.resultId(message.result));
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
        for (const key of launch.keys) {
          const id = launch.keyId(key);
          if (done.has(id)) continue;
          const where = current === id ? ' while measuring this cell' : ' before this cell ran';
          await hooks.onResult(launch.failed(key, fatal ?? `isolated process ${exitText(code, sig)}${where}`));
        }
        await stderrDone;
        resolve();
      });
    });
    if (signal?.aborted) onAbort();
    const job: ChildJobMessage = { kind: launch.kind, payload: launch.payload, ...(launch.module !== undefined ? { module: launch.module } : {}), engineModules };
    try {
      child.send({ type: 'job', job } satisfies ForkedParentMessage);
    } catch (err) {
      // A job that cannot be sent (a value that cannot be cloned) must not leave the child waiting for it forever, keeping us alive.
      fatal ??= `could not send the job to the isolated process: ${err instanceof Error ? err.message : String(err)}`;
      child.kill('SIGKILL');
    }
  });
}

/**
 * The launcher that runs each launch in a fresh child process; `engineModules`
 * are registered in every child first, as a local run's are.
 */
export function isolatedLaunch(engineModules: readonly string[] = []): Launcher {
  return (launch, hooks, signal) => launchInChild(launch, hooks, signal, engineModules);
}
