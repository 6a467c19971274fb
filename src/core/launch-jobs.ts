/**
 * The job every launcher takes, and the tables of registered jobs the
 * launchers run. A launcher (src/launchers/: in this process, a fresh child
 * process, beside a browser page, on a queue worker) is handed `{ kind,
 * payload }` and runs the job registered for that kind in its table; it
 * never names a scenario, and a new scenario needs no launcher file. The
 * tables live here, in the core, so that launchers and scenarios both see
 * them while neither imports the other: a scenario folder registers its
 * jobs at import, and the program's entry points (or the launch itself, by
 * `module`) decide which scenario modules are imported.
 */
import type { Engine } from './engine.js';
import type { EngineRegistry } from './engine-registry.js';
import type { QueueConnectOptions, WorkerQueue } from './queue-launch.js';

/** The one job shape every launcher takes: the kind of a registered job and its payload. */
export interface Job {
  /** The kind the job is registered under. */
  readonly kind: string;
  /** For a child process: plain data only (structured-clone). In this process or beside a page: any value. */
  readonly payload: unknown;
}

/** What a running job reports through: the stop signal, a key started, a result. */
export interface JobIo<Key, Result> {
  readonly signal: AbortSignal | undefined;
  readonly start: (key: Key) => void;
  readonly result: (result: Result) => Promise<void>;
}

/**
 * What a child job reports through: as JobIo, with the child's engine
 * registry, which the child entry passes in (src/launchers/scenario-child.ts),
 * since a fresh process has no run to take one from. In-process and page
 * jobs carry the run's registry in their payload.
 */
export interface ChildJobIo<Key, Result> extends JobIo<Key, Result> {
  readonly registry: EngineRegistry;
}

/** A registered child job: re-create its work from the plain payload and measure it with the child's registry. */
export type ChildJobRun<Payload, Key, Result> = (payload: Payload, io: ChildJobIo<Key, Result>) => Promise<void>;

/** A registered job: re-create or take its work from the payload and measure it. */
export type JobRun<Payload, Key, Result> = (payload: Payload, io: JobIo<Key, Result>) => Promise<void>;

/** A registered page job: as a JobRun, with the engine the browser launcher bound to its page (the engine itself when it runs in Node). */
export type PageJobRun<Payload, Key, Result> = (payload: Payload, io: JobIo<Key, Result>, engine: Engine) => Promise<void>;

/** One job as a launcher runs it: the job, and how its keys and results are told apart. */
export interface Launch<Key, Result> extends Job {
  /**
   * `file:` URL of the module whose import registers `kind` in a child
   * process. Only the local parent sets it: a queue job is plain data
   * checked field by field and can name no module, so a worker never
   * imports code a job chose.
   */
  readonly module?: string;
  readonly keys: readonly Key[];
  /** Identity of a key, to tell which keys the job finished. */
  readonly keyId: (key: Key) => string;
  readonly resultId: (result: Result) => string;
  /** The result recorded for a key the job did not finish, with why. */
  readonly failed: (key: Key, reason: string) => Result;
  /** The result recorded for a key that cannot run here at all (a browser that is not installed); `failed` when absent. */
  readonly skipped?: (key: Key, reason: string) => Result;
}

/** Callbacks as a launched job reports progress. */
export interface LaunchHooks<Key, Result> {
  readonly onStart: (key: Key) => void;
  readonly onResult: (result: Result) => Promise<void>;
}

/**
 * Runs one launch where the launcher decides (this process, a child
 * process). Never rejects for a job's failure: unfinished keys come back as
 * `failed`, so the sweep goes on.
 */
export type Launcher = <Key, Result>(launch: Launch<Key, Result>, hooks: LaunchHooks<Key, Result>, signal: AbortSignal | undefined) => Promise<void>;

/** One job a run hands the browser launcher: a kind with a registered page job, its payload, and the engine and threads whose browser runs it. */
export interface PageLaunch<Key, Result> extends Launch<Key, Result> {
  readonly engine: string | Engine;
  readonly registry: EngineRegistry;
  readonly threads: number | null;
}

/** Runs jobs beside pages of a browser kept per engine × threads until `close()` (src/launchers/browser/browser-launcher.ts). */
export interface PageLauncher {
  /** Resolves once every key has a result; never rejects for a page's failure. */
  run<Key, Result>(launch: PageLaunch<Key, Result>, hooks: LaunchHooks<Key, Result>, signal: AbortSignal | undefined): Promise<void>;
  close(): Promise<void>;
}

/**
 * The launchers a run may choose among, given to it as a value: launchers
 * sit above scenarios (src/launchers/), so a scenario's run that picks
 * where each group runs (a classify sweep: this process, a child process,
 * a browser page) is handed them by its caller, never imports them.
 */
export interface Launchers {
  /** This process, by the in-process job table. */
  readonly inProcess: () => Launcher;
  /** A fresh child process per launch, `engineModules` (plug-in engine modules) registered in each child first. */
  readonly isolated: (engineModules: readonly string[]) => Launcher;
  /** Beside a browser page; closed when the sweep ends. */
  readonly page: () => PageLauncher;
  /** A queue of `inferbench worker`s (`--queue`), connected once its workers registered; the run builds its jobs (./queue-jobs.ts) and closes it. */
  readonly queue: (options: QueueConnectOptions) => Promise<WorkerQueue>;
}

/** The io a registered job gets from a launcher's hooks: keys and results pass through untouched, typed by the job that made them. */
export function jobIo<Key, Result>(hooks: LaunchHooks<Key, Result>, signal: AbortSignal | undefined): JobIo<unknown, unknown> {
  return { signal, start: hooks.onStart, result: hooks.onResult } as unknown as JobIo<unknown, unknown>;
}

/** Jobs by kind, for one launcher; a kind registered twice is a programming error, an unknown one names the registered ones. */
export class JobTable<Run> {
  private readonly runs = new Map<string, Run>();

  /** `what` names the table's jobs in its errors ('child job', 'page job'). */
  constructor(private readonly what: string) {}

  register(kind: string, run: Run): void {
    if (this.runs.has(kind)) throw new Error(`a ${this.what} for kind '${kind}' is already registered`);
    this.runs.set(kind, run);
  }

  job(kind: string): Run {
    const run = this.runs.get(kind);
    if (run === undefined) throw new Error(`no ${this.what} is registered for kind '${kind}' (registered: ${[...this.runs.keys()].join(', ') || 'none'})`);
    return run;
  }
}

/** What an isolated child process runs, by kind (src/launchers/scenario-child.ts): its payload is plain data. */
export const childJobs = new JobTable<ChildJobRun<unknown, unknown, unknown>>('child job');
/** What the in-process launcher runs, by kind: its payload may hold live objects (the model, the rows). */
export const localJobs = new JobTable<JobRun<unknown, unknown, unknown>>('in-process job');
/** What the browser launcher runs beside a page, by kind, with the engine bound to the page. */
export const pageJobs = new JobTable<PageJobRun<unknown, unknown, unknown>>('page job');

/** Registers the child job of a kind. */
export function registerChildJob<Payload, Key, Result>(kind: string, run: ChildJobRun<Payload, Key, Result>): void {
  childJobs.register(kind, run as ChildJobRun<unknown, unknown, unknown>);
}

/** The child job registered for `kind`. */
export function childJob(kind: string): ChildJobRun<unknown, unknown, unknown> {
  return childJobs.job(kind);
}

/** Registers the in-process job of a kind. */
export function registerLocalJob<Payload, Key, Result>(kind: string, run: JobRun<Payload, Key, Result>): void {
  localJobs.register(kind, run as JobRun<unknown, unknown, unknown>);
}

/** Registers the page job of a kind: what runs beside a browser page (only classify has one today). */
export function registerPageJob<Payload, Key, Result>(kind: string, run: PageJobRun<Payload, Key, Result>): void {
  pageJobs.register(kind, run as PageJobRun<unknown, unknown, unknown>);
}

/**
 * True for a `file:` URL, the only form `Launch.module` may take: the
 * parent names a module on its own disk, never one to fetch or a bare
 * package name to resolve from wherever the child runs. One rule for the
 * registration that declares it and the child that imports it.
 */
export function isFileUrl(value: string): boolean {
  return URL.canParse(value) && new URL(value).protocol === 'file:';
}
