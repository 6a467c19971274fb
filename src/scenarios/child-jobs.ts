/**
 * The registry of child jobs: what an isolated child process runs for each
 * scenario kind. A scenario folder registers its job here (one call, at
 * import), and the one child entry (src/launchers/scenario-child.ts) looks
 * the job up by the kind the parent sends, so the launchers never name a
 * scenario and a new scenario needs no launcher file. Scenarios may not
 * import launchers; the parent's half of the protocol (`IsolatedLaunch`)
 * is therefore handed in by the runs layer.
 */
import type { EngineRegistry } from '../core/engine-registry.js';

/** What a running child job reports through (the stop signal, a key started, a result), and the engines it loads from. */
export interface ChildIo<Key, Result> {
  /** The child's engine registry, passed in by the child entry (src/launchers/scenario-child.ts), with the launch's engine modules registered. */
  readonly registry: EngineRegistry;
  readonly signal: AbortSignal;
  readonly start: (key: Key) => void;
  readonly result: (result: Result) => Promise<void>;
}

/** The child's half: re-create the group from its plain-data payload and measure it. */
export type ChildJobRun<Payload, Key, Result> = (payload: Payload, io: ChildIo<Key, Result>) => Promise<void>;

/** The parent's half for one group: which job, its plain-data payload, and how its keys and results are told apart. */
export interface ChildLaunch<Key, Result> {
  /** The kind the child job is registered under. */
  readonly kind: string;
  /**
   * `file:` URL of the module whose import registers `kind`, for a kind the
   * child does not know (a plug-in's or a test's scenario); built-in kinds
   * leave it out, as the child registers them itself. Only the local parent
   * sets it: a queue job is plain data checked field by field and can name
   * no module, so a worker never imports code a job chose.
   */
  readonly module?: string;
  /** Plain data only (structured-clone): functions and live objects cannot cross a process. */
  readonly payload: unknown;
  readonly keys: readonly Key[];
  /** Identity of a key, to tell which keys the child finished. */
  readonly keyId: (key: Key) => string;
  readonly resultId: (result: Result) => string;
  /** The result recorded for a key the child did not finish, with why. */
  readonly failed: (key: Key, reason: string) => Result;
}

/** Callbacks as the child reports progress. */
export interface ChildHooks<Key, Result> {
  readonly onStart: (key: Key) => void;
  readonly onResult: (result: Result) => Promise<void>;
}

/**
 * Runs one launch in a child process (src/launchers/isolated-launcher.ts).
 * Never rejects for a child failure: unfinished keys come back as `failed`.
 */
export type IsolatedLaunch = <Key, Result>(launch: ChildLaunch<Key, Result>, hooks: ChildHooks<Key, Result>, signal: AbortSignal | undefined) => Promise<void>;

const jobs = new Map<string, ChildJobRun<unknown, unknown, unknown>>();

/** Registers the child job of a scenario kind; a kind registered twice is a programming error. */
export function registerChildJob<Payload, Key, Result>(kind: string, run: ChildJobRun<Payload, Key, Result>): void {
  if (jobs.has(kind)) throw new Error(`a child job for kind '${kind}' is already registered`);
  jobs.set(kind, run as ChildJobRun<unknown, unknown, unknown>);
}

/** The child job registered for `kind`; an unknown kind names the registered ones. */
export function childJob(kind: string): ChildJobRun<unknown, unknown, unknown> {
  const run = jobs.get(kind);
  if (run === undefined) throw new Error(`no child job is registered for kind '${kind}' (registered: ${[...jobs.keys()].join(', ') || 'none'})`);
  return run;
}

/**
 * True for a `file:` URL, the only form `ChildLaunch.module` may take: the
 * parent names a module on its own disk, never one to fetch or a bare
 * package name to resolve from wherever the child runs. One rule for the
 * registration that declares it and the child that imports it.
 */
export function isFileUrl(value: string): boolean {
  return URL.canParse(value) && new URL(value).protocol === 'file:';
}
