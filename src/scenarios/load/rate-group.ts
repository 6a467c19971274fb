/**
 * The server scenario's unit of work: load one model on one engine, warm
 * it, then measure each asked-for rate and, with a latency goal, search
 * for the peak rate; every probe is handed on as soon as it is measured.
 * Launchers call this in the process they choose (this one or a fresh
 * child), so every launcher measures the same way.
 */
import type { EngineRegistry } from '../../core/engine-registry.js';
import { readyCall, type EngineSession, type ReadyCall, type SessionDescription } from '../../core/engine-session.js';
import type { ErroredLoadCell, LoadCellKey, LoadProbe, LoadSettings, PeakRound, ProbePurpose, SkippedLoadCell } from './load-results.js';
import { probePassed, summarizeRequests } from './load-summary.js';
import type { TensorMap } from '../../core/tensor.js';
import { cellFailure } from '../../core/errors.js';
import { openOn, type BenchmarkModel } from '../../models/benchmark-model.js';
import type { ResolvedColumns } from '../../../datasets/columns.js';
import type { DataRow } from '../../../datasets/dataset.js';
import { drawSchedule } from './arrival-schedule.js';
import { RealClock, type Clock } from './clock.js';
import { earlyStopRule } from './early-stop.js';
import { PEAK_MAX_PROBES, PEAK_PRECISION, roundRate, searchPeak } from './peak-search.js';
import { respond } from './respond.js';
import { serveSchedule, type BatchHandler } from './serve-loop.js';

/** A warm pass at one batch size stops after this long (a slow engine still gets every shape it reaches). */
const WARM_PASS_CAP_MS = 5000;

/** The first arrival of a probe comes this long after it starts, so it is not late for setting up. */
const LEAD_MS = 2;

/** The search's lowest rate: below the start ÷ 64 (six halvings) it reports that no rate passes. */
const SEARCH_RANGE = 64;

/** What a load group measures besides the engine: the rates, the search and every probe's settings. */
export interface LoadPlan {
  readonly settings: LoadSettings;
  /** Rates the user asked for, in requests per second, measured in this order. */
  readonly rates: readonly number[];
  readonly findPeak: boolean;
  /** The peak search never probes above this (schedule size stays bounded). */
  readonly maxRps: number;
}

/** One model on one engine, one round: a fresh load. */
export interface LoadGroup {
  readonly model: BenchmarkModel;
  readonly engine: string;
  readonly threads: number | null;
  readonly key: LoadCellKey;
  readonly round: number;
  readonly plan: LoadPlan;
  /** Request i carries row i mod rows.length, so every engine serves the same rows in the same order. */
  readonly rows: readonly DataRow[];
  readonly columns: ResolvedColumns;
  readonly registry: EngineRegistry;
  readonly signal: AbortSignal | undefined;
}

/** What a group hands on: each probe, then how the round ended. */
export type LoadGroupResult =
  | { readonly kind: 'probe'; readonly key: LoadCellKey; readonly probe: LoadProbe }
  | {
      readonly kind: 'done';
      readonly key: LoadCellKey;
      readonly round: number;
      readonly session: SessionDescription;
      readonly openMs: number;
      readonly serviceMs: { readonly batchOne: number; readonly maxBatch: number };
      readonly peak: PeakRound | null;
      readonly interrupted: boolean;
    }
  | { readonly kind: 'failed'; readonly key: LoadCellKey; readonly round: number; readonly cell: ErroredLoadCell | SkippedLoadCell };

export interface LoadGroupHooks {
  readonly onStart: (key: LoadCellKey) => void;
  readonly onResult: (result: LoadGroupResult) => Promise<void>;
}

/** Where a group runs: this process (measureServerGroup) or a child process (load-child-job.ts). */
export type LoadGroupRunner = (group: LoadGroup, hooks: LoadGroupHooks) => Promise<void>;

/** The engine work of one batch: rows → inputs wrapped for the engine → outputs → responses. */
function engineHandler(group: LoadGroup, session: EngineSession, labels: readonly string[]): BatchHandler<ReadyCall, TensorMap> {
  const { rows, columns, model } = group;
  return {
    prepare: async (requests) => readyCall(session, await model.prepareBatch(requests.map((i) => rows[i % rows.length] as DataRow), columns)),
    run: async (call) => (await call.run()).outputs,
    post: (outputs, requests) => void respond(outputs, requests.length, labels),
  };
}

/**
 * One untimed pass over every row at batch 1, then at the maximum batch,
 * so the shapes the probes will meet have been seen once (ORT allocation
 * plans, tfjs recorded plans). Its mean prepare + engine time per call
 * (first call left out) seeds the peak search.
 */
async function warmPass(group: LoadGroup, handler: BatchHandler<ReadyCall, TensorMap>, batch: number): Promise<number> {
  const times: number[] = [];
  const started = performance.now();
  for (let first = 0; first < group.rows.length; first += batch) {
    if (group.signal?.aborted || (times.length > 1 && performance.now() - started > WARM_PASS_CAP_MS)) break;
    const requests = Array.from({ length: Math.min(batch, group.rows.length - first) }, (_v, i) => first + i);
    const begin = performance.now();
    await handler.run(await handler.prepare(requests));
    times.push(performance.now() - begin);
  }
  const steady = times.length > 1 ? times.slice(1) : times;
  return steady.reduce((a, b) => a + b, 0) / Math.max(1, steady.length);
}

/** Measures one rate with the group's settings. */
export async function measureProbe(
  group: Pick<LoadGroup, 'plan' | 'round' | 'signal'>,
  handler: BatchHandler<unknown, unknown> | BatchHandler<ReadyCall, TensorMap>,
  rateRps: number,
  purpose: ProbePurpose,
  clock: Clock = new RealClock(),
): Promise<LoadProbe | null> {
  const s = group.plan.settings;
  const schedule = drawSchedule({ arrival: s.arrival, burstiness: s.burstiness, seed: s.seed, round: group.round, rateRps, warmupMs: s.warmupMs, durationMs: s.durationMs, minQueries: s.minQueries });
  const served = await serveSchedule({
    clock,
    schedule,
    batcher: { maxBatch: s.maxBatch, maxWaitMs: s.maxWaitMs },
    handler: handler as BatchHandler<unknown, unknown>,
    drainMs: Math.max(1000, s.durationMs / 2),
    leadMs: LEAD_MS,
    ...(s.slo ? { stopRule: earlyStopRule(s.slo) } : {}),
    ...(group.signal ? { signal: group.signal } : {}),
  });
  if (served.samples.scheduledMs.length === 0) return null;
  const summary = summarizeRequests(served.samples, { durationMs: s.durationMs, minQueries: s.minQueries, maxBatch: s.maxBatch, slo: s.slo, endedEarly: served.endedEarly, scheduleComplete: served.scheduleComplete });
  return { round: group.round, targetRps: rateRps, purpose, warmupRequests: served.warmupRequests, endedEarly: served.endedEarly, samples: served.samples, summary, passed: probePassed(summary) };
}

/** Opens the engine and measures one round of the group in this process; see the module comment. */
export async function measureServerGroup(group: LoadGroup, hooks: LoadGroupHooks): Promise<void> {
  const { key, round } = group;
  const fail = (cell: ErroredLoadCell | SkippedLoadCell) => hooks.onResult({ kind: 'failed', key, round, cell });
  let session: EngineSession;
  const openStart = performance.now();
  try {
    const engine = await group.registry.require(group.engine);
    if (engine.runsIn === 'browser') return fail({ ...key, state: 'skipped', reason: `${group.engine} runs in a browser page; inferbench load serves from Node only` });
    session = await openOn(engine, group.model, { threads: group.threads });
  } catch (err) {
    return fail({ ...key, ...cellFailure(err) });
  }
  const openMs = performance.now() - openStart;
  const description = session.describe();
  try {
    hooks.onStart(key);
    const labels = 'labels' in group.model ? ((group.model as { labels: readonly string[] }).labels ?? []) : [];
    const handler = engineHandler(group, session, labels);
    const batchOne = await warmPass(group, handler, 1);
    const maxBatch = group.plan.settings.maxBatch === 1 ? batchOne : await warmPass(group, handler, group.plan.settings.maxBatch);
    const known: { rateRps: number; passed: boolean }[] = [];
    // null: a stop cut the probe short (its requests are kept, never VALID), so it says nothing about the rate.
    const probe = async (rate: number, purpose: ProbePurpose): Promise<boolean | null> => {
      const measured = await measureProbe(group, handler, rate, purpose);
      if (measured !== null) await hooks.onResult({ kind: 'probe', key, probe: measured });
      if (group.signal?.aborted) return null;
      return measured === null ? false : measured.passed === true;
    };
    for (const rate of group.plan.rates) {
      if (group.signal?.aborted) break;
      const passed = await probe(rate, 'rate');
      if (passed !== null) known.push({ rateRps: rate, passed });
    }
    let peak: PeakRound | null = null;
    if (group.plan.findPeak && (!group.signal?.aborted || known.length > 0)) {
      const capacity = (group.plan.settings.maxBatch * 1000) / Math.max(maxBatch, 1e-3);
      const start = roundRate(Math.min(group.plan.maxRps, capacity / 2));
      const found = await searchPeak(probe, {
        startRps: start,
        minRps: Math.max(0.1, start / SEARCH_RANGE),
        maxRps: group.plan.maxRps,
        relativePrecision: PEAK_PRECISION,
        maxProbes: PEAK_MAX_PROBES,
        known,
        ...(group.signal ? { signal: group.signal } : {}),
      });
      peak = { round, lastPass: found.lastPass, firstFail: found.firstFail, probes: found.probes, ...(found.interrupted ? { interrupted: true as const } : {}) };
    }
    await hooks.onResult({ kind: 'done', key, round, session: description, openMs, serviceMs: { batchOne, maxBatch }, peak, interrupted: group.signal?.aborted === true });
  } catch (err) {
    await fail({ ...(({ ...key, ...cellFailure(err) }) as ErroredLoadCell), session: description });
  } finally {
    await session.dispose().catch(() => {});
  }
}
