/**
 * One `inferbench load` run from a plain-JSON config: check every input,
 * plan the models, read the rows the requests carry, sweep through the run
 * driver (run folder, save after every cell, Ctrl-C), write the files.
 * Input mistakes fail before anything is loaded.
 */
import { UserError } from '../../core/errors.js';
import { goalText } from './latency-goal.js';
import type { ArrivalProcess, LoadCell, LoadRunRecord, LoadSettings } from './load-results.js';
import { ARRIVAL_PROCESSES } from './load-results.js';
import { checkRange, type RangeAudience } from '../../core/option-ranges.js';
import type { TextClassification } from '../../models/text-classification.js';
import type { DataRow } from '../../../datasets/dataset.js';
import { writeLoadFiles } from './load-files.js';
import type { LoadPlan } from './rate-group.js';
import { runLoadSweep, type LoadProgress } from './load-sweep.js';
import { loadChildRunner } from './load-child-job.js';
import { DEFAULT_OUT_DIR } from '../../core/output-folder.js';
import { planModels } from '../model-plan.js';
import { driveRun, type RunOutcome } from '../run-driver.js';
import { isolatedOf, type ScenarioRunHooks } from '../scenario-registry.js';
import { openRunInputs } from '../run-inputs.js';
import { standaloneRegistry } from '../../models/standalone-registry.js';

/**
 * Everything that defines a load run, resolved, as results.json and the
 * history record it; `rerun` replays it with the same seed. The probe
 * settings are LoadSettings' fields, but for the batcher's, which stay
 * null when not given (so `--max-wait` without `--max-batch` can be told).
 */
export interface LoadConfig extends Omit<LoadSettings, 'maxBatch' | 'maxWaitMs'> {
  readonly command: 'load';
  /** Model folders or Hub ids; empty means the embedded default. */
  readonly models: readonly string[];
  /** Engines; null means every engine available here (browser engines are left out, as for run). */
  readonly engines: readonly string[] | null;
  readonly threads: number | null;
  /** Dataset path or Hub id; null means the embedded default dataset. */
  readonly dataset: string | null;
  readonly textColumn: string | null;
  /** Rows the requests carry, in order, cycled. */
  readonly limit: number;
  /** Offered rates to measure, requests per second. */
  readonly rates: readonly number[];
  readonly findPeak: boolean;
  /** null: not given (batches of 1, and --max-wait is refused). */
  readonly maxBatch: number | null;
  /** null: not given (0, never wait for a batch to fill). */
  readonly maxWaitMs: number | null;
  readonly rounds: number;
  readonly out: string;
  readonly png: boolean;
  /** Each model × engine round in its own child process (default true), as run does. */
  readonly isolate: boolean;
}

export const LOAD_DEFAULTS = {
  limit: 256,
  arrival: 'poisson' as ArrivalProcess,
  burstiness: 1,
  seed: 1,
  durationMs: 5000,
  minQueries: 100,
  warmupMs: 1000,
  rounds: 1,
} as const;

/**
 * Most requests one probe may draw (warm-up and measured): its schedule is
 * drawn in advance and every request's times are kept, so a rate × duration
 * beyond this is refused before anything runs, and the peak search stays
 * below it.
 */
export const MAX_PROBE_REQUESTS = 2_000_000;

/** What a load run is given by its caller: the driver's hooks, the engines, its progress events and the isolated launcher (see ScenarioRunHooks). */
export type LoadHooks = ScenarioRunHooks<LoadRunRecord, LoadProgress>;

export type LoadOutcome = RunOutcome<LoadRunRecord>;

/** A config with the defaults filled in, for callers that build one from flags or JSON. */
export function loadConfig(partial: Partial<LoadConfig>): LoadConfig {
  return {
    command: 'load',
    models: partial.models ?? [],
    engines: partial.engines ?? null,
    threads: partial.threads ?? null,
    dataset: partial.dataset ?? null,
    textColumn: partial.textColumn ?? null,
    limit: partial.limit ?? LOAD_DEFAULTS.limit,
    rates: partial.rates ?? [],
    findPeak: partial.findPeak ?? false,
    arrival: partial.arrival ?? LOAD_DEFAULTS.arrival,
    burstiness: partial.burstiness ?? LOAD_DEFAULTS.burstiness,
    seed: partial.seed ?? LOAD_DEFAULTS.seed,
    durationMs: partial.durationMs ?? LOAD_DEFAULTS.durationMs,
    minQueries: partial.minQueries ?? LOAD_DEFAULTS.minQueries,
    warmupMs: partial.warmupMs ?? LOAD_DEFAULTS.warmupMs,
    maxBatch: partial.maxBatch ?? null,
    maxWaitMs: partial.maxWaitMs ?? null,
    slo: partial.slo ?? null,
    rounds: partial.rounds ?? LOAD_DEFAULTS.rounds,
    out: partial.out ?? DEFAULT_OUT_DIR,
    png: partial.png ?? true,
    isolate: partial.isolate ?? true,
  };
}

/** The settings every probe of the run shares. */
export function loadSettings(config: LoadConfig): LoadSettings {
  return {
    arrival: config.arrival,
    burstiness: config.burstiness,
    seed: config.seed,
    durationMs: config.durationMs,
    minQueries: config.minQueries,
    warmupMs: config.warmupMs,
    maxBatch: config.maxBatch ?? 1,
    maxWaitMs: config.maxWaitMs ?? 0,
    slo: config.slo,
  };
}

/** The highest rate whose probe stays within MAX_PROBE_REQUESTS. */
export function maxProbeRate(config: Pick<LoadConfig, 'durationMs' | 'warmupMs'>): number {
  const seconds = (config.durationMs + config.warmupMs) / 1000;
  return Math.min(100_000, seconds > 0 ? MAX_PROBE_REQUESTS / seconds : 100_000);
}

/** Checks every number and choice before anything loads; messages name flags or fields as the caller speaks. */
export function checkLoadConfig(config: LoadConfig, audience: RangeAudience = 'field'): void {
  const name = (flag: string, field: string) => (audience === 'flag' ? flag : field);
  for (const r of config.rates) checkRange('rates', r, audience);
  if (!ARRIVAL_PROCESSES.includes(config.arrival)) {
    throw new UserError(`${name('--arrival', 'arrival')} must be one of ${ARRIVAL_PROCESSES.join(', ')}, got ${JSON.stringify(config.arrival)}`, `pass ${name('--arrival', 'arrival')} poisson`);
  }
  checkRange('burstiness', config.burstiness, audience);
  checkRange('seed', config.seed, audience);
  checkRange('durationMs', config.durationMs, audience);
  checkRange('minQueries', config.minQueries, audience);
  checkRange('warmupMs', config.warmupMs, audience);
  checkRange('limit', config.limit, audience);
  checkRange('rounds', config.rounds, audience);
  if (config.threads !== null) checkRange('threads', config.threads, audience);
  if (config.maxBatch !== null) checkRange('maxBatch', config.maxBatch, audience);
  if (config.maxWaitMs !== null) {
    checkRange('maxWaitMs', config.maxWaitMs, audience);
    if (config.maxBatch === null) {
      throw new UserError(
        `${name('--max-wait', 'maxWaitMs')} needs ${name('--max-batch', 'maxBatch')}: the batcher waits for a batch to fill, and without a maximum batch every batch holds one request`,
        `pass ${name('--max-batch', 'maxBatch')} too, e.g. ${name('--max-batch 8 --max-wait 5', 'maxBatch: 8, maxWaitMs: 5')}`,
      );
    }
  }
  if (config.findPeak && config.slo === null) {
    throw new UserError(`${name('--find-peak', 'findPeak')} needs a latency goal: the peak is the highest rate that meets it`, `pass ${name('--slo', 'slo')} ${audience === 'flag' ? 'p99=50ms' : '"p99=50ms"'}`);
  }
  if (config.rates.length === 0 && !config.findPeak) {
    throw new UserError('nothing to measure: no rate given', audience === 'flag' ? 'pass --rates 50,100,200 (requests per second), or --find-peak --slo p99=50ms' : 'set rates (requests per second), or findPeak with slo');
  }
  const ceiling = maxProbeRate(config);
  for (const r of config.rates) {
    if (r > ceiling) {
      throw new UserError(
        `${name('--rates', 'rates')} ${r} over ${((config.durationMs + config.warmupMs) / 1000).toFixed(1)} s of warm-up and duration draws more than ${MAX_PROBE_REQUESTS.toLocaleString('en-US')} requests per probe`,
        `lower the rate to at most ${Math.floor(ceiling)}, or shorten ${name('--duration', 'durationMs')} and ${name('--warmup', 'warmupMs')}`,
      );
    }
  }
}

/** Runs the load benchmark described by `config` through the run driver; each model × engine round in a child process unless `isolate` is false. */
export async function executeLoad(config: LoadConfig, hooks: LoadHooks = {}, audience: RangeAudience = 'field'): Promise<LoadOutcome> {
  checkLoadConfig(config, audience);
  const { registry, requested, dataset, columns, datasetName } = await openRunInputs(config, hooks.registry ?? standaloneRegistry());
  const rows: DataRow[] = [];
  for await (const row of dataset.take(config.limit)) rows.push(row);
  if (rows.length === 0) throw new UserError(`dataset ${datasetName} has no rows`, 'pass --dataset a file or Hub dataset with rows');
  const plan = await planModels({ models: config.models, architectures: [], dtypes: null, revision: null, registry, dataset, columns });
  const models = plan.map((p) => p.model).filter((m): m is TextClassification => m !== null);
  const loadPlan: LoadPlan = { settings: loadSettings(config), rates: config.rates, findPeak: config.findPeak, maxRps: maxProbeRate(config) };
  return driveRun<LoadCell, LoadRunRecord>(
    {
      kind: 'load',
      out: config.out,
      png: config.png,
      registry,
      engines: requested,
      models: plan.map((p) => p.info),
      recordedConfig: (engines, unavailableEngines) => ({
        ...config,
        enginesResolved: engines,
        unavailableEngines,
        datasetResolved: datasetName,
        rowsUsed: rows.length,
        settings: loadPlan.settings,
        sloText: config.slo ? goalText(config.slo) : null,
      }),
      sweep: (engines, record) =>
        runLoadSweep({
          models,
          engines,
          threads: config.threads,
          plan: loadPlan,
          rounds: config.rounds,
          rows,
          columns,
          registry,
          ...(hooks.signal ? { signal: hooks.signal } : {}),
          ...(hooks.onProgress ? { onProgress: hooks.onProgress } : {}),
          onCell: record,
          ...(config.isolate ? { runGroup: loadChildRunner(isolatedOf(hooks)) } : {}),
        }),
      write: (record, dir, options) => writeLoadFiles(record, dir, options),
    },
    hooks,
  );
}
