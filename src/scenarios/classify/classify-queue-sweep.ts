/**
 * `inferbench run --queue`: the sweep of a run spread over (or repeated on)
 * BullMQ workers. The coordinator plans the models and opens the rows as a
 * local run does, turns each open group (model × engine × threads, with
 * its batch sizes and rounds) into one job per worker that should run it,
 * and records every cell as it comes back, tagged with the worker (host)
 * that measured it, so one run record holds every machine.
 *
 * Each job measures its rounds on one worker, back to back; rounds are not
 * interleaved with other engines' opens as they are locally. Within a host
 * the CI across round means still holds; across hosts, cells differ in the
 * machine, which is the comparison asked for.
 *
 * The queue itself (Redis, the workers, the file server) is the queue
 * launcher's (core/queue-launch.ts `WorkerQueue`), handed to the run as
 * `Launchers.queue`; what is classify's is here: the jobs an open group
 * becomes (./classify-queue-job.ts), the rows' and models' hashes, and the
 * cells each outcome stands for.
 */
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import type { CellHost, CellKey, CellResult } from '../../core/results.js';
import type { Dataset } from '../../../datasets/dataset.js';
import { hashModelFolder, hashRows } from '../../core/file-manifest.js';
import { CLASSIFY_JOB_SCHEMA, type ClassifyQueueJob, type DatasetRequest, type ModelRequest } from './classify-queue-job.js';
import type { CoordinatorOutcome, WorkerInfo, WorkerQueue } from '../../core/queue-launch.js';
import type { Launchers } from '../../core/launch-jobs.js';
import { UserError } from '../../core/errors.js';
import { isHubRepoId } from '../../hub/hub-id.js';
import { HUB_PREFIX } from '../../../datasets/hub-dataset.js';
import type { ProgressEvent } from './benchmark-options.js';
import type { QueueRunOptions, QueueSweepConfig } from './classify-queue.js';
import { DEFAULT_MODEL_ROW, type PlannedModel } from '../model-plan.js';

/** Default of `--worker-timeout`: time for a worker to be restarted (a pod rescheduled) before its cells are given up. */
export const DEFAULT_WORKER_TIMEOUT_MS = 300_000;

const hostOf = (w: WorkerInfo): CellHost => ({ name: w.name, id: w.id });

/** What the record keeps of a worker: its registry entry without the heartbeat. */
const fingerprint = ({ name, id, environment, engines, concurrency }: WorkerInfo): Record<string, unknown> => ({ name, id, environment, engines, concurrency });

function engineReason(w: WorkerInfo, engine: string): string | null {
  const e = w.engines.find((x) => x.id === engine);
  if (e?.available) return null;
  return e?.reason ?? 'not an engine this worker knows';
}

/** A Hub id as workers accept it (org/name, the only form that can never be a path on their disk), or a UserError saying so. */
function sendableHubId(id: string, what: string): string {
  if (isHubRepoId(id)) return id;
  throw new UserError(`${what} ${id} cannot be sent to workers: they accept a Hub id only as org/name`, `pass the ${what}'s full Hub id with its organisation (e.g. openai-community/gpt2)`);
}

/** A classification run's sweep on a connected queue of workers. */
export class ClassifyQueueSweep {
  /** The fingerprints the record keeps: the workers present at the start, and any that joined and sent cells (a replacement). */
  private readonly recordedWorkers: Record<string, unknown>[];

  private constructor(
    private readonly queue: WorkerQueue,
    private readonly options: QueueRunOptions,
  ) {
    this.recordedWorkers = queue.workers.map(fingerprint);
  }

  /** Connects through the queue launcher (a UserError naming the masked URL when Redis is unreachable) and waits for the workers. */
  static async open(launchers: Launchers, options: QueueRunOptions): Promise<ClassifyQueueSweep> {
    return new ClassifyQueueSweep(await launchers.queue(options), options);
  }

  /** The workers asked for, as they registered. */
  get workers(): readonly WorkerInfo[] {
    return this.queue.workers;
  }

  /** The engines asked for, else every engine available on at least one worker. */
  engines(requested: readonly string[] | null): string[] {
    if (requested) return [...requested];
    return [...new Set(this.workers.flatMap((w) => w.engines.filter((e) => e.available).map((e) => e.id)))];
  }

  /** What the run record keeps of the queue: the masked address and every worker's fingerprint. */
  recorded(): Record<string, unknown> {
    return {
      url: this.queue.masked,
      onEachWorker: this.options.onEachWorker,
      // The same list the sweep extends when a worker that joined later sends cells, so its HOSTS row has its machine.
      workers: this.recordedWorkers,
    };
  }

  /** Adds the fingerprint of a worker that sent cells but was not there at the start (it replaced one that died). */
  private async recordHost(cell: CellResult): Promise<void> {
    const name = cell.host?.name;
    if (name === undefined || this.recordedWorkers.some((w) => w['name'] === name)) return;
    const joined = await this.queue.registered().then((all) => all.find((w) => w.name === name), () => undefined);
    if (joined) this.recordedWorkers.push(fingerprint(joined));
  }

  /** Engines unavailable on any worker, with the worker named, for the record's `unavailableEngines`. */
  unavailable(engines: readonly string[]): { id: string; reason: string }[] {
    return engines.flatMap((id) => this.workers.flatMap((w) => {
      const why = engineReason(w, id);
      return why === null ? [] : [{ id, reason: `on worker ${w.name}: ${why}` }];
    }));
  }

  private async modelRequest(row: PlannedModel, config: QueueSweepConfig): Promise<ModelRequest> {
    const base = row.info.variant?.of ?? row.info.name;
    const source = row.info.source;
    if (source.startsWith('hub:')) {
      const ref = source.slice(4);
      const at = ref.lastIndexOf('@');
      return { kind: 'hub', id: sendableHubId(at > 0 ? ref.slice(0, at) : ref, 'model'), revision: at > 0 ? ref.slice(at + 1) : null };
    }
    const spec = config.architectures.find((a) => source === `generated: ${a.name}`);
    if (spec) return { kind: 'architecture', spec };
    if (base === DEFAULT_MODEL_ROW) return { kind: 'default' };
    return { kind: 'files', manifest: await this.queue.serve(row.model?.dir ?? source, 'model folder') };
  }

  private async datasetRequest(config: QueueSweepConfig): Promise<DatasetRequest> {
    if (config.dataset === null) return { kind: 'embedded' };
    if (existsSync(resolve(config.dataset))) return { kind: 'files', manifest: await this.queue.serve(resolve(config.dataset), 'dataset') };
    return { kind: 'hub', id: sendableHubId(config.dataset.startsWith(HUB_PREFIX) ? config.dataset.slice(HUB_PREFIX.length).replace(/\/+$/u, '') : config.dataset, 'dataset') };
  }

  private prepared: { rowsHash: string; dataset: DatasetRequest; models: Map<PlannedModel, { request: ModelRequest; hash: string }> } | null = null;

  /**
   * Hashes the rows and the models and builds what workers fetch, before
   * the run starts: a local folder without `--serve-models` fails here,
   * before a run folder is created.
   */
  async prepare(plan: readonly PlannedModel[], config: QueueSweepConfig, dataset: Dataset): Promise<void> {
    const datasetRequest = await this.datasetRequest(config);
    const models = new Map<PlannedModel, { request: ModelRequest; hash: string }>();
    for (const row of plan) {
      if (row.model) models.set(row, { request: await this.modelRequest(row, config), hash: await hashModelFolder(row.model.dir, row.model.onnxFile) });
    }
    const rowsHash = await hashRows(config.limit === null ? dataset : dataset.take(config.limit));
    this.prepared = { rowsHash, dataset: datasetRequest, models };
  }

  /**
   * Enqueues every open group and records each cell as it comes back;
   * resolves when every job has an outcome (Ctrl-C included).
   */
  async sweep(
    plan: readonly PlannedModel[],
    engines: readonly string[],
    run: { readonly id: string; readonly config: QueueSweepConfig; readonly dataset: Dataset; readonly signal: AbortSignal | undefined },
    record: (cell: CellResult) => Promise<void>,
    onProgress: ((event: ProgressEvent) => void) | undefined,
  ): Promise<void> {
    const { config } = run;
    if (!this.prepared) await this.prepare(plan, config, run.dataset);
    const { rowsHash, dataset, models } = this.prepared!;
    const lengths: readonly (number | null)[] = config.sequenceLengths ?? [null];
    const targets: readonly (WorkerInfo | null)[] = this.options.onEachWorker ? this.workers : [null];
    const jobs: ClassifyQueueJob[] = [];
    const immediate: CellResult[] = [];
    const keys = (model: string, engine: string, threads: number | null, seq: number | null): CellKey[] =>
      config.batchSizes.map((batchSize) => ({ model, engine, batchSize, requestedThreads: threads, ...(seq === null ? {} : { sequenceLength: seq }) }));
    for (const row of plan) {
      const request = models.get(row)?.request ?? null;
      const modelHash = models.get(row)?.hash ?? '';
      for (const seq of lengths) {
        for (const engine of engines) {
          for (const threads of config.threads) {
            for (const target of targets) {
              const host = target ? { host: hostOf(target) } : {};
              const skip = (reason: string) => keys(row.info.name, engine, threads, seq).forEach((k) => immediate.push({ ...k, ...host, state: 'skipped', reason }));
              if (!row.model || !request) {
                skip(row.skipReason ?? 'not run');
                continue;
              }
              if (seq !== null && seq > row.model.maxLength) {
                skip(`sequence length ${seq} exceeds ${row.info.name}'s maximum of ${row.model.maxLength} positions`);
                continue;
              }
              const candidates = target ? [target] : this.workers;
              if (candidates.every((w) => engineReason(w, engine) !== null)) {
                skip(`${engine} is unavailable on ${target ? 'worker' : 'every worker'}: ${candidates.map((w) => `${w.name}: ${engineReason(w, engine)}`).join('; ')}`);
                continue;
              }
              // --workers keeps a spread job on the named workers; without it any worker may take it, even one started later.
              const allowed = target ? [target.name] : this.options.workers ? candidates.filter((w) => engineReason(w, engine) === null).map((w) => w.name) : null;
              jobs.push({
                schema: CLASSIFY_JOB_SCHEMA, runId: run.id, row: row.info.name, model: request, dtype: row.info.variant?.dtype ?? null, modelHash,
                dataset, datasetConfig: config.datasetConfig ?? null, split: config.split ?? null, rowsHash,
                textColumn: config.textColumn, labelColumn: config.labelColumn, limit: config.limit, sequenceLength: seq,
                engine, threads, batchSizes: config.batchSizes, rounds: config.rounds ?? 1, warmupBatches: config.warmupBatches,
                stop: config.stop, maxCv: config.maxCv, parity: config.parity, workers: allowed, refused: {},
              });
            }
          }
        }
      }
    }
    const total = immediate.length + jobs.length * config.batchSizes.length;
    let index = 0;
    const save = async (cell: CellResult): Promise<void> => {
      await this.recordHost(cell);
      await record(cell);
      onProgress?.({ kind: 'cell-done', index: index++, total, cell });
    };
    for (const cell of immediate) await save(cell);
    await this.queue.runJobs(jobs, {
      signal: run.signal,
      drainTimeoutMs: this.options.drainTimeoutMs ?? 60_000,
      workerTimeoutMs: this.options.workerTimeoutMs ?? DEFAULT_WORKER_TIMEOUT_MS,
      ...(this.options.onNotice ? { onNotice: this.options.onNotice } : {}),
      onOutcome: async (job, outcome) => {
        for (const cell of cellsOf(job, outcome, this.workers)) await save(cell);
      },
    });
  }

  close(): Promise<void> {
    return this.queue.close();
  }
}

/** The cells a job's outcome stands for: the worker's own, or one per batch size with the reason. */
function cellsOf(job: ClassifyQueueJob, outcome: CoordinatorOutcome, workers: readonly WorkerInfo[]): CellResult[] {
  if (outcome.kind === 'cells') return (outcome.cells as CellResult[]).filter((c) => typeof c === 'object' && c !== null && c.engine === job.engine);
  const target = job.workers?.length === 1 ? workers.find((w) => w.name === job.workers?.[0]) : undefined;
  const host = target ? { host: hostOf(target) } : {};
  const key = (batchSize: number): CellKey => ({ model: job.row, engine: job.engine, batchSize, requestedThreads: job.threads, ...(job.sequenceLength === null ? {} : { sequenceLength: job.sequenceLength }) });
  if (outcome.kind === 'refused') {
    const reasons = Object.entries(outcome.refused).map(([name, why]) => `${name}: ${why}`).join('; ') || `none of its workers (${job.workers?.join(', ') ?? 'any'}) is running`;
    const state = outcome.skip ? 'skipped' : 'errored';
    return job.batchSizes.map((b) => ({ ...key(b), ...host, state, reason: `refused by ${job.workers?.length === 1 ? 'its worker' : 'every worker'}: ${reasons}` }));
  }
  if (outcome.kind === 'interrupted') return job.batchSizes.map((b) => ({ ...key(b), ...host, state: 'skipped', reason: outcome.reason }));
  return job.batchSizes.map((b) => ({ ...key(b), ...host, state: 'errored', reason: `the job failed: ${outcome.reason}` }));
}
