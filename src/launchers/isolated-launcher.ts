/**
 * The one isolated launcher: runs a scenario's group in a fresh Node
 * process through the one child entry (scenario-child.ts), whatever the
 * scenario. The scenario supplies the launch (its kind, a plain-data
 * payload, how its keys and results are told apart); this file only adds
 * the engine modules to register and the process mechanics (fork-child.ts).
 */
import { fileURLToPath } from 'node:url';
import type { IsolatedLaunch } from '../scenarios/child-jobs.js';
import { forkChild } from './fork-child.js';

const CHILD_ENTRY = fileURLToPath(new URL('./scenario-child.js', import.meta.url));

/** The job message every isolated child receives: the kind of its registered child job, that job's payload, and the engine modules to register first. */
export interface ChildJobMessage {
  readonly kind: string;
  readonly payload: unknown;
  /** `file:` URL of the module that registers `kind` in the child, when it is not built in (ChildLaunch.module). */
  readonly module?: string;
  /** Modules whose exported `engines` array is registered in the child (plug-in and test engines). */
  readonly engineModules: readonly string[];
}

/**
 * Runs each launch in a fresh child process, so one engine's allocations
 * and crashes never touch another's figures. Keys the child did not finish
 * come back as the launch's `failed` result with the way it ended; the
 * promise never rejects for a child failure, so the sweep goes on.
 */
export function isolatedLaunch(engineModules: readonly string[] = []): IsolatedLaunch {
  return (launch, hooks, signal) =>
    forkChild(
      {
        entry: CHILD_ENTRY,
        // The kind on the command line only names the child in `ps`; the job message is what the child reads.
        args: [launch.kind],
        job: { kind: launch.kind, payload: launch.payload, ...(launch.module !== undefined ? { module: launch.module } : {}), engineModules } satisfies ChildJobMessage,
        keys: launch.keys,
        keyId: launch.keyId,
        resultId: launch.resultId,
        failed: launch.failed,
      },
      hooks,
      signal,
    );
}
