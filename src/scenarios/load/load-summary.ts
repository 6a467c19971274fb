/**
 * The figures of a load probe, from its raw per-request samples alone:
 * offered and achieved rate, latency percentiles, queue wait, the batches
 * formed, the latency goal's outcome and the VALID / overloaded / too short
 * verdict. Pure; the scenario calls it to judge a probe during a peak
 * search, and the report views call it again on pooled rounds.
 *
 * Rates follow LoadGen's server scenario (mlcommons/inference
 * loadgen/results.cc): the offered rate is (n − 1) ÷ the span of the
 * scheduled arrivals ("scheduled samples per second"). LoadGen's completed
 * rate divides by the time from the first arrival to the last completion;
 * its runs last 10 minutes, ours seconds, where the last requests' latency
 * would bias that figure, so the achieved rate here is (completed − 1) ÷
 * the span from the first to the last completion.
 */
import type { LatencyGoal, LatencyPercentiles, LoadSummary, LoadVerdict, RequestSamples, SloOutcome } from './load-results.js';
import { percentileOfSorted } from '../../core/statistics.js';

/** The achieved rate may fall this far below the offered one in a VALID probe. */
export const ACHIEVED_RATE_TOLERANCE = 0.02;

/**
 * The queue "grew" when the mean number of waiting requests seen by the
 * last quarter's arrivals exceeds the first quarter's by more than the
 * larger of two maximum batches and this share of a quarter's arrivals: a
 * stable queue's quarter means wander by a few requests (at 80% load an
 * M/D/1 queue holds 1.6 on average), an overloaded one gains
 * (offered − achieved) × a half of the span.
 */
export const QUEUE_GROWTH_SHARE = 0.05;

/** What the figures depend on besides the samples. */
export interface SummaryContext {
  readonly durationMs: number;
  readonly minQueries: number;
  readonly maxBatch: number;
  readonly slo: LatencyGoal | null;
  /** Why the probe ended before its schedule did, or null. */
  readonly endedEarly: string | null;
  /**
   * False when the probe stopped before its last scheduled arrival (an
   * early stop, Ctrl-C): its few requests cannot tell a growing queue or a
   * lagging rate from noise, so it is only "too short". A probe cut while
   * draining its queue had every arrival and is judged in full.
   */
  readonly scheduleComplete: boolean;
}

const rate = (count: number, spanMs: number): number => (count >= 2 && spanMs > 0 ? ((count - 1) * 1000) / spanMs : 0);

function mean(values: readonly number[]): number {
  let total = 0;
  for (const v of values) total += v;
  return values.length > 0 ? total / values.length : 0;
}

const numbers = (values: readonly (number | null)[]): number[] => values.filter((v): v is number => v !== null);

/** Percentiles of every latency, unfinished requests at their lower bound (see LatencyPercentiles). */
export function latencyPercentiles(s: RequestSamples): LatencyPercentiles {
  const sorted = [...s.latencyMs].sort((a, b) => a - b);
  let censoredFrom: number | null = null;
  for (let i = 0; i < s.latencyMs.length; i++) {
    if (s.completed[i] === 0) censoredFrom = Math.min(censoredFrom ?? Infinity, s.latencyMs[i] as number);
  }
  return {
    mean: mean(sorted),
    p50: percentileOfSorted(sorted, 50),
    p90: percentileOfSorted(sorted, 90),
    p95: percentileOfSorted(sorted, 95),
    p99: percentileOfSorted(sorted, 99),
    p999: percentileOfSorted(sorted, 99.9),
    max: sorted[sorted.length - 1] as number,
    censoredFromMs: censoredFrom,
  };
}

/**
 * Requests waiting (arrived, not yet started) as each measured request
 * arrives. The batcher starts requests in arrival order, so the requests
 * before i that have started by i's arrival are a prefix.
 */
export function queueDepths(s: RequestSamples): number[] {
  const n = s.scheduledMs.length;
  const start = (j: number): number => {
    const q = s.queueMs[j];
    return s.completed[j] === 1 && q !== null && q !== undefined ? (s.scheduledMs[j] as number) + q : Infinity;
  };
  const depths: number[] = [];
  let started = 0;
  for (let i = 0; i < n; i++) {
    const t = s.scheduledMs[i] as number;
    while (started < i && start(started) <= t) started++;
    depths.push(i - started);
  }
  return depths;
}

function quarterDepths(s: RequestSamples, spanMs: number): { firstQuarter: number; lastQuarter: number; perQuarter: number } {
  const depths = queueDepths(s);
  const first: number[] = [];
  const last: number[] = [];
  for (let i = 0; i < depths.length; i++) {
    const t = (s.scheduledMs[i] as number) - (s.scheduledMs[0] as number);
    if (t <= spanMs / 4) first.push(depths[i] as number);
    if (t >= (3 * spanMs) / 4) last.push(depths[i] as number);
  }
  return { firstQuarter: mean(first), lastQuarter: mean(last), perQuarter: depths.length / 4 };
}

function batchCounts(s: RequestSamples): Record<string, number> {
  const seen = new Map<number, number>();
  for (let i = 0; i < s.batchId.length; i++) {
    const id = s.batchId[i];
    const size = s.batchSize[i];
    if (id !== null && id !== undefined && size !== null && size !== undefined) seen.set(id, size);
  }
  const counts: Record<string, number> = {};
  for (const size of [...seen.values()].sort((a, b) => a - b)) counts[String(size)] = (counts[String(size)] ?? 0) + 1;
  return counts;
}

function sloOutcome(s: RequestSamples, goal: LatencyGoal, achievedRps: number, completedCount: number): SloOutcome {
  const sorted = [...s.latencyMs].sort((a, b) => a - b);
  const valueMs = percentileOfSorted(sorted, goal.percentile);
  let over = 0;
  let within = 0;
  for (let i = 0; i < s.latencyMs.length; i++) {
    const latency = s.latencyMs[i] as number;
    if (latency > goal.limitMs) over++;
    else if (s.completed[i] === 1) within++;
  }
  return {
    percentile: goal.percentile,
    limitMs: goal.limitMs,
    valueMs,
    met: valueMs <= goal.limitMs,
    overShare: s.latencyMs.length > 0 ? over / s.latencyMs.length : 0,
    goodputRps: completedCount > 0 ? (achievedRps * within) / completedCount : 0,
  };
}

const fixed = (n: number, digits = 1): string => n.toFixed(digits);

/** The verdict's rule (see LoadVerdict), each failed condition as a reason with its numbers. */
export function loadVerdict(figures: {
  readonly requests: number;
  readonly unfinished: number;
  readonly measuredMs: number;
  readonly offeredRps: number;
  readonly achievedRps: number;
  readonly queueDepth: { readonly firstQuarter: number; readonly lastQuarter: number };
  readonly perQuarter: number;
}, context: SummaryContext): LoadVerdict {
  const overloaded: string[] = [];
  const short: string[] = [];
  if (context.scheduleComplete && figures.offeredRps > 0 && figures.achievedRps < (1 - ACHIEVED_RATE_TOLERANCE) * figures.offeredRps) {
    const below = (1 - figures.achievedRps / figures.offeredRps) * 100;
    overloaded.push(`achieved ${fixed(figures.achievedRps)} req/s, ${fixed(below)}% below the offered ${fixed(figures.offeredRps)} req/s (at most ${ACHIEVED_RATE_TOLERANCE * 100}%)`);
  }
  const growth = figures.queueDepth.lastQuarter - figures.queueDepth.firstQuarter;
  const allowed = Math.max(2 * context.maxBatch, QUEUE_GROWTH_SHARE * figures.perQuarter);
  if (context.scheduleComplete && growth > allowed) {
    overloaded.push(`the queue grew from ${fixed(figures.queueDepth.firstQuarter)} waiting requests in the first quarter to ${fixed(figures.queueDepth.lastQuarter)} in the last (more than ${fixed(allowed)})`);
  }
  // Stopped early, most of what arrived still waiting: a backlog no noise explains (typically built up during the warm-up).
  if (!context.scheduleComplete && figures.unfinished >= 2 && figures.unfinished > figures.requests / 2) {
    overloaded.push(`${figures.unfinished} of the ${figures.requests} measured requests were still waiting when the probe stopped`);
  }
  if (context.endedEarly !== null) short.push(context.endedEarly);
  if (figures.measuredMs < context.durationMs) short.push(`arrivals spanned ${fixed(figures.measuredMs / 1000, 2)} s, under the minimum ${fixed(context.durationMs / 1000, 2)} s`);
  if (figures.requests < context.minQueries) short.push(`${figures.requests} requests measured, under the minimum ${context.minQueries}`);
  if (overloaded.length > 0) return { status: 'overloaded', reasons: [...overloaded, ...short] };
  if (short.length > 0) return { status: 'too short', reasons: short };
  return { status: 'VALID', reasons: [] };
}

/** Every figure of one probe (or of pooled probes) from its samples. */
export function summarizeRequests(s: RequestSamples, context: SummaryContext): LoadSummary {
  const n = s.scheduledMs.length;
  if (n === 0) throw new RangeError('a load summary needs at least one measured request');
  const measuredMs = (s.scheduledMs[n - 1] as number) - (s.scheduledMs[0] as number);
  const completions: number[] = [];
  for (let i = 0; i < n; i++) if (s.completed[i] === 1) completions.push((s.scheduledMs[i] as number) + (s.latencyMs[i] as number));
  completions.sort((a, b) => a - b);
  const completedCount = completions.length;
  const offeredRps = rate(n, measuredMs);
  const achievedRps = completedCount >= 2 ? rate(completedCount, (completions[completedCount - 1] as number) - (completions[0] as number)) : 0;
  const queue = [...numbers(s.queueMs)].sort((a, b) => a - b);
  const depth = quarterDepths(s, measuredMs);
  const queueDepth = { firstQuarter: depth.firstQuarter, lastQuarter: depth.lastQuarter };
  const done = (values: readonly (number | null)[]) => numbers(values.filter((_v, i) => s.completed[i] === 1));
  return {
    requests: n,
    completedRequests: completedCount,
    unfinished: n - completedCount,
    offeredRps,
    achievedRps,
    measuredMs,
    latency: latencyPercentiles(s),
    queueWait: { mean: mean(queue), p99: queue.length > 0 ? percentileOfSorted(queue, 99) : 0 },
    parts: { queueMs: mean(done(s.queueMs)), prepareMs: mean(done(s.prepareMs)), engineMs: mean(done(s.engineMs)), postMs: mean(done(s.postMs)) },
    batchSizes: batchCounts(s),
    queueDepth,
    slo: context.slo ? sloOutcome(s, context.slo, achievedRps, completedCount) : null,
    verdict: loadVerdict({ requests: n, unfinished: n - completedCount, measuredMs, offeredRps, achievedRps, queueDepth, perQuarter: depth.perQuarter }, context),
  };
}

/** Whether a probe passes its goal: a VALID measurement whose goal percentile is within the limit; null without a goal. */
export function probePassed(summary: LoadSummary): boolean | null {
  if (summary.slo === null) return null;
  return summary.verdict.status === 'VALID' && summary.slo.met;
}
