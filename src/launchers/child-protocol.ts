/**
 * The protocol both halves of an isolated launch share, and nothing else:
 * the parent (isolated-launcher.ts) forks the child entry and sends one job
 * message; the child (scenario-child-job.ts) answers with its cells as they
 * come. Kept apart from both halves so neither imports the other, and the
 * job itself passes through each side's one file only.
 */

/** The job message every isolated child receives: the kind of its registered child job, that job's payload, and the modules to import first. */
export interface ChildJobMessage {
  readonly kind: string;
  readonly payload: unknown;
  /** `file:` URL of the module that registers `kind` in the child (Launch.module). */
  readonly module?: string;
  /** Modules whose exported `engines` array is registered in the child (plug-in and test engines). */
  readonly engineModules: readonly string[];
}

/** Child → parent messages of any scenario: the one protocol for progress, results, the end and an error. */
export type ForkedChildMessage<Key, Result> =
  | { readonly type: 'cell-start'; readonly key: Key }
  | { readonly type: 'result'; readonly result: Result }
  | { readonly type: 'done' }
  | { readonly type: 'fatal'; readonly message: string; readonly userError: boolean; readonly fix?: string };

/** Parent → child messages. */
export type ForkedParentMessage = { readonly type: 'job'; readonly job: ChildJobMessage } | { readonly type: 'abort'; readonly cause?: string };

/**
 * stdio index of the lifeline pipe: the parent keeps it open and never
 * writes; the child exits when it reads EOF there (the parent died, even by
 * SIGKILL). See lifeline.ts.
 */
export const PARENT_LIFELINE_FD = 4;

