import { EventEmitter } from 'node:events';
import { hostname } from 'node:os';
import { OWNER_TOKEN } from '../runs/history/owner.js';
import { describeError, UserError } from '../core/errors.js';
import type { EngineRegistry } from '../core/engine-registry.js';
import type { HistoryStore } from '../runs/history/history-store.js';
import { scenarioOfConfig, type CellProgress } from '../scenarios/scenario-registry.js';
import { executeStored } from '../runs/history/recorded-run.js';
import type { StoredConfig } from '../runs/history/history-entry.js';

/** Progress of the run being measured, as the page shows it. */
export interface LiveProgress {
  readonly id: number;
  readonly done: number;
  readonly total: number | null;
  /** The cell being measured, once one has started. */
  readonly current: { readonly engine: string; readonly batchSize: number } | null;
}

/** What the queue tells listeners (the event stream). */
export type QueueEvent =
  | { readonly type: 'queued'; readonly id: number }
  | { readonly type: 'started'; readonly id: number }
  | { readonly type: 'progress'; readonly progress: LiveProgress }
  | { readonly type: 'finished'; readonly id: number; readonly state: string; readonly error: string | null }
  | { readonly type: 'removed'; readonly id: number }
  | { readonly type: 'waiting'; readonly id: number; readonly reason: string }
  | { readonly type: 'warning'; readonly message: string };

interface Job {
  readonly id: number;
  readonly config: StoredConfig;
  readonly source: 'api' | 'web';
}

/**
 * Runs dashboard benchmarks one at a time, in the order they were added.
 * Two benchmarks on one machine compete for cores and memory bandwidth, so
 * running them together would corrupt both measurements. Each run goes
 * through the history's recorder (executeStored), so the history sees it like a CLI run.
 */
export class RunQueue extends EventEmitter<{ event: [QueueEvent] }> {
  private readonly waiting: Job[] = [];
  private running: { job: Job; controller: AbortController; progress: LiveProgress } | null = null;
  private idle: Promise<void> = Promise.resolve();

  constructor(
    private readonly store: HistoryStore,
    private readonly registry?: EngineRegistry,
    /** How often to look again while another process is measuring. */
    private readonly machinePollMs = 1000,
    /**
     * Called with a job's config as it starts; what it returns is run. The
     * dashboard re-checks paths here (see ScenarioApi.recheckPaths); a throw fails the entry.
     */
    private readonly beforeRun: (config: StoredConfig) => StoredConfig | Promise<StoredConfig> = (config) => config,
  ) {
    super();
  }

  /** Adds an entry (already in the store as `queued`) to the end of the queue. */
  enqueue(id: number, config: StoredConfig, source: 'api' | 'web'): void {
    this.waiting.push({ id, config, source });
    this.emit('event', { type: 'queued', id });
    if (!this.running) this.idle = this.drain();
  }

  /** Live progress of the run being measured, if any. */
  current(): LiveProgress | null {
    return this.running?.progress ?? null;
  }

  isRunning(id: number): boolean {
    return this.running?.job.id === id;
  }

  isWaiting(id: number): boolean {
    return this.waiting.some((j) => j.id === id);
  }

  /** Drops a waiting entry; true when it was waiting. */
  dequeue(id: number): boolean {
    const index = this.waiting.findIndex((j) => j.id === id);
    if (index === -1) return false;
    this.waiting.splice(index, 1);
    return true;
  }

  /**
   * Stops the running entry after its current batch (its measured cells
   * are kept and it ends `interrupted`), or marks a waiting one
   * interrupted. False when the id is neither.
   */
  async cancel(id: number): Promise<boolean> {
    if (this.running?.job.id === id) {
      this.running.controller.abort();
      return true;
    }
    if (!this.dequeue(id)) return false;
    await this.store.finish(id, 'interrupted', 'cancelled before it started');
    this.emit('event', { type: 'finished', id, state: 'interrupted', error: 'cancelled before it started' });
    return true;
  }

  /** Stops the running entry and forgets the waiting ones (server shutdown); resolves when the run has ended. */
  async stop(): Promise<void> {
    for (const job of this.waiting.splice(0)) {
      await this.store.finish(job.id, 'interrupted', 'the dashboard stopped before it ran').catch(() => undefined);
    }
    this.running?.controller.abort();
    await this.idle;
  }

  private async drain(): Promise<void> {
    for (let job = this.waiting.shift(); job !== undefined; job = this.waiting.shift()) {
      const controller = new AbortController();
      this.running = { job, controller, progress: { id: job.id, done: 0, total: null, current: null } };
      this.emit('event', { type: 'started', id: job.id });
      await this.runOne(job, controller);
      this.running = null;
    }
  }

  private setProgress(progress: LiveProgress): void {
    if (this.running) this.running.progress = progress;
    this.emit('event', { type: 'progress', progress });
  }

  /**
   * Waits while another process on this machine (a CLI `run`, another
   * dashboard) is measuring into the same history, since the two would
   * disturb each other. False when cancelled meanwhile.
   */
  private async waitForMachine(job: Job, controller: AbortController): Promise<boolean> {
    for (;;) {
      if (controller.signal.aborted) return false;
      const others = (await this.store.list()).filter((e) => e.state === 'running' && e.ownerToken !== OWNER_TOKEN && e.ownerHost === hostname());
      if (others.length === 0) return true;
      this.emit('event', { type: 'waiting', id: job.id, reason: `waiting for benchmark ${others.map((e) => e.id).join(', ')} (process ${others.map((e) => e.ownerPid).join(', ')}) to finish` });
      await new Promise((resolve) => setTimeout(resolve, this.machinePollMs));
    }
  }

  private async runOne(job: Job, controller: AbortController): Promise<void> {
    const base = () => this.running?.progress ?? { id: job.id, done: 0, total: null, current: null };
    if (!(await this.waitForMachine(job, controller).catch(() => true))) {
      await this.store.finish(job.id, 'interrupted', 'cancelled before it started').catch(() => undefined);
      this.emit('event', { type: 'finished', id: job.id, state: 'interrupted', error: 'cancelled before it started' });
      return;
    }
    let config: StoredConfig;
    try {
      config = await this.beforeRun(job.config);
      const scenario = scenarioOfConfig(config);
      if (!scenario.execute) throw new UserError(`the ${scenario.command} scenario cannot run a stored config in this inferbench`, 'run it with its own command');
    } catch (err) {
      const error = describeError(err);
      await this.store.finish(job.id, 'failed', error).catch(() => undefined);
      this.emit('event', { type: 'finished', id: job.id, state: 'failed', error });
      return;
    }
    try {
      const onCell = (event: CellProgress): void => {
        if (event.kind === 'cell-start') this.setProgress({ ...base(), total: event.total, current: { engine: event.engine, batchSize: event.batchSize } });
        else this.setProgress({ ...base(), total: event.total, done: event.index + 1, current: event.index + 1 < event.total ? base().current : null });
      };
      const recording = { store: this.store, source: job.source, entryId: job.id, onWarning: (message: string) => this.emit('event', { type: 'warning', message }) };
      const { outcome, nothingMeasured } = await executeStored(config, { signal: controller.signal, ...(this.registry ? { registry: this.registry } : {}), onCell }, recording);
      if (nothingMeasured) this.emit('event', { type: 'finished', id: job.id, state: 'failed', error: nothingMeasured.message });
      else this.emit('event', { type: 'finished', id: job.id, state: outcome.record.state, error: null });
    } catch (err) {
      this.emit('event', { type: 'finished', id: job.id, state: controller.signal.aborted ? 'interrupted' : 'failed', error: describeError(err) });
    }
  }
}
