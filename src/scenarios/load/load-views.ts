/**
 * The figures of a load run (`inferbench load`), shaped once and rendered
 * many times: the terminal tables, the CSV and Parquet rows, the hockey
 * stick and CDF charts and the dashboard all read these pure functions.
 * Statistics come from src/scenarios/load/load-summary.ts and src/core/statistics.ts.
 */
import { isInterruptedReason } from '../../core/stop-cause.js';
import type { CompletedLoadCell, LatencyGoal, LoadCell, LoadProbe, LoadRunRecord, LoadSettings, LoadSummary, LoadVerdict, RequestSamples } from './load-results.js';
import { latencyPercentiles } from './load-summary.js';
import { percentileOfSorted } from '../../core/statistics.js';

/** The run's settings, as the config recorded them, and its rounds. */
export type LoadSettingsView = LoadSettings & { readonly rounds: number };

export function loadSettingsView(run: LoadRunRecord): LoadSettingsView {
  const c = run.config as Record<string, unknown>;
  const s = (c['settings'] ?? {}) as Partial<LoadSettings>;
  return {
    arrival: (s.arrival ?? c['arrival'] ?? 'poisson') as LoadSettings['arrival'],
    burstiness: Number(s.burstiness ?? c['burstiness'] ?? 1),
    seed: Number(s.seed ?? c['seed'] ?? 0),
    durationMs: Number(s.durationMs ?? c['durationMs'] ?? 0),
    minQueries: Number(s.minQueries ?? c['minQueries'] ?? 0),
    warmupMs: Number(s.warmupMs ?? c['warmupMs'] ?? 0),
    maxBatch: Number(s.maxBatch ?? 1),
    maxWaitMs: Number(s.maxWaitMs ?? 0),
    slo: (s.slo ?? (c['slo'] as LatencyGoal | null | undefined) ?? null) as LatencyGoal | null,
    rounds: Number(c['rounds'] ?? 1),
  };
}

/** The percentile every chart plots: the goal's, else p99. */
export function chartPercentile(run: LoadRunRecord): number {
  return loadSettingsView(run).slo?.percentile ?? 99;
}

/** A latency percentile of a summary by its number (50, 90, 95, 99, 99.9). */
export function percentileOf(summary: LoadSummary, p: number): number {
  const l = summary.latency;
  return p === 50 ? l.p50 : p === 90 ? l.p90 : p === 95 ? l.p95 : p === 99.9 ? l.p999 : l.p99;
}

/** Tables label an engine with its model when the run has several. */
export function engineLabel(run: LoadRunRecord, cell: Pick<LoadCell, 'engine' | 'model'>): string {
  return new Set(run.cells.map((c) => c.model)).size > 1 ? `${cell.engine} · ${cell.model}` : cell.engine;
}

/** A probe a stop (Ctrl-C, SIGTERM) cut short: kept in results.json and the CSV, never evidence in a table, chart or comparison. */
export const wasCutByStop = (p: LoadProbe): boolean => p.endedEarly !== null && isInterruptedReason(p.endedEarly);

const allProbesOf = (cell: LoadCell): readonly LoadProbe[] => (cell.state === 'skipped' ? [] : (cell.probes ?? []));
/** The probes views show: every whole probe, none a stop cut short (cutProbes lists those, for the line that says so). */
const probesOf = (cell: LoadCell): readonly LoadProbe[] => allProbesOf(cell).filter((p) => !wasCutByStop(p));

/** Probes a stop cut short, with their engine label, for the report's note. */
export function cutProbes(run: LoadRunRecord): { readonly label: string; readonly probe: LoadProbe }[] {
  return run.cells.flatMap((cell) => allProbesOf(cell).filter(wasCutByStop).map((probe) => ({ label: engineLabel(run, cell), probe })));
}

/** The columns a pooled summary needs from each probe's requests. */
function merged(probes: readonly LoadProbe[]): Pick<RequestSamples, 'latencyMs' | 'completed' | 'queueMs'> {
  return {
    latencyMs: probes.flatMap((p) => p.samples.latencyMs),
    completed: probes.flatMap((p) => p.samples.completed),
    queueMs: probes.flatMap((p) => p.samples.queueMs),
  };
}

const meanOf = (values: readonly number[]): number => (values.length > 0 ? values.reduce((a, b) => a + b, 0) / values.length : 0);

/**
 * One rate's figures over its rounds: percentiles and queue wait over every
 * request of every round (the same estimators as one probe's), rates and
 * goodput as the mean of the rounds, batches summed, and VALID only when
 * every round was (otherwise each failing round's reasons).
 */
export function pooledSummary(probes: readonly LoadProbe[]): LoadSummary {
  const first = probes[0];
  if (first === undefined) throw new RangeError('no probe to pool');
  if (probes.length === 1) return first.summary;
  const m = merged(probes);
  const queue = m.queueMs.filter((q): q is number => q !== null).sort((a, b) => a - b);
  const weighted = (part: keyof LoadSummary['parts']) => {
    const total = probes.reduce((sum, p) => sum + p.summary.parts[part] * p.summary.completedRequests, 0);
    const count = probes.reduce((sum, p) => sum + p.summary.completedRequests, 0);
    return count > 0 ? total / count : 0;
  };
  const batchSizes: Record<string, number> = {};
  for (const p of probes) for (const [size, count] of Object.entries(p.summary.batchSizes)) batchSizes[size] = (batchSizes[size] ?? 0) + count;
  const failing = probes.filter((p) => p.summary.verdict.status !== 'VALID');
  const verdict: LoadVerdict = failing.length === 0
    ? { status: 'VALID', reasons: [] }
    : { status: (failing.find((p) => p.summary.verdict.status === 'overloaded') ?? failing[0] as LoadProbe).summary.verdict.status, reasons: failing.flatMap((p) => p.summary.verdict.reasons.map((r) => `round ${p.round + 1}: ${r}`)) };
  const latency = latencyPercentiles({ ...first.samples, ...m });
  const goal = first.summary.slo;
  const sorted = [...m.latencyMs].sort((a, b) => a - b);
  return {
    requests: probes.reduce((s, p) => s + p.summary.requests, 0),
    completedRequests: probes.reduce((s, p) => s + p.summary.completedRequests, 0),
    unfinished: probes.reduce((s, p) => s + p.summary.unfinished, 0),
    offeredRps: meanOf(probes.map((p) => p.summary.offeredRps)),
    achievedRps: meanOf(probes.map((p) => p.summary.achievedRps)),
    measuredMs: probes.reduce((s, p) => s + p.summary.measuredMs, 0),
    latency,
    queueWait: { mean: meanOf(queue), p99: queue.length > 0 ? percentileOfSorted(queue, 99) : 0 },
    parts: { queueMs: weighted('queueMs'), prepareMs: weighted('prepareMs'), engineMs: weighted('engineMs'), postMs: weighted('postMs') },
    batchSizes,
    queueDepth: { firstQuarter: meanOf(probes.map((p) => p.summary.queueDepth.firstQuarter)), lastQuarter: meanOf(probes.map((p) => p.summary.queueDepth.lastQuarter)) },
    slo: goal === null
      ? null
      : (() => {
          const valueMs = percentileOfSorted(sorted, goal.percentile);
          return {
            percentile: goal.percentile,
            limitMs: goal.limitMs,
            valueMs,
            met: valueMs <= goal.limitMs,
            overShare: sorted.length > 0 ? sorted.filter((l) => l > goal.limitMs).length / sorted.length : 0,
            goodputRps: meanOf(probes.map((p) => p.summary.slo?.goodputRps ?? 0)),
          };
        })(),
    verdict,
  };
}

/** One row of the rate table: an engine at one offered rate, its rounds pooled. */
export interface LoadRateRow {
  readonly cell: LoadCell;
  readonly label: string;
  readonly targetRps: number;
  readonly rounds: number;
  readonly probes: readonly LoadProbe[];
  readonly summary: LoadSummary;
  /** VALID and within the goal in every round; null without a goal. */
  readonly passed: boolean | null;
  /** Why it was measured: `rate` (asked for), or a peak-search step. */
  readonly purpose: string;
}

/** Every engine × rate, engines in run order and rates ascending. */
export function loadRateRows(run: LoadRunRecord): LoadRateRow[] {
  const rows: LoadRateRow[] = [];
  for (const cell of run.cells) {
    const byRate = new Map<number, LoadProbe[]>();
    for (const p of probesOf(cell)) byRate.set(p.targetRps, [...(byRate.get(p.targetRps) ?? []), p]);
    for (const [targetRps, probes] of [...byRate].sort((a, b) => a[0] - b[0])) {
      const passes = probes.map((p) => p.passed);
      rows.push({
        cell,
        label: engineLabel(run, cell),
        targetRps,
        rounds: probes.length,
        probes,
        summary: pooledSummary(probes),
        passed: passes.includes(null) ? null : passes.every((p) => p === true),
        purpose: [...new Set(probes.map((p) => p.purpose))].join('+'),
      });
    }
  }
  return rows;
}

/** Cells with no probe to show (skipped, or errored before any), with their reason. */
export function loadFailedCells(run: LoadRunRecord): (LoadCell & { readonly state: 'errored' | 'skipped' })[] {
  return run.cells.filter((c): c is LoadCell & { state: 'errored' | 'skipped' } => c.state !== 'completed');
}

/** One engine's peak: per round the last passing and first failing rate, and the spread across rounds. */
export interface LoadPeakRow {
  readonly cell: CompletedLoadCell;
  readonly label: string;
  /** The mean of the rounds' last passing rates; null when no rate passed. */
  readonly peakRps: number | null;
  /** Lowest last-passing and highest first-failing rate over the rounds: the interval every round's peak lies in. */
  readonly interval: { readonly lastPass: number | null; readonly firstFail: number | null; readonly interrupted?: true };
  readonly ci95: { readonly low: number; readonly high: number } | null;
  readonly rounds: readonly { readonly lastPass: number | null; readonly firstFail: number | null }[];
  readonly probes: number;
}

/** Peaks of the engines that searched one (`--find-peak`). */
export function loadPeakRows(run: LoadRunRecord): LoadPeakRow[] {
  return run.cells
    .filter((c): c is CompletedLoadCell => c.state === 'completed' && c.peak !== null)
    .map((cell) => {
      const peak = cell.peak as NonNullable<CompletedLoadCell['peak']>;
      const passes = peak.rounds.map((r) => r.lastPass);
      const fails = peak.rounds.map((r) => r.firstFail);
      return {
        cell,
        label: engineLabel(run, cell),
        peakRps: peak.acrossRounds?.mean ?? null,
        interval: {
          lastPass: passes.includes(null) ? null : Math.min(...(passes as number[])),
          firstFail: fails.includes(null) ? null : Math.max(...(fails as number[])),
          // A stop cut a round's search: its cut probe is left out, so the interval is what whole probes bound.
          ...(peak.rounds.some((r) => r.interrupted === true) ? { interrupted: true as const } : {}),
        },
        ci95: peak.acrossRounds?.ci95 ?? null,
        rounds: peak.rounds.map((r) => ({ lastPass: r.lastPass, firstFail: r.firstFail })),
        probes: peak.rounds.reduce((s, r) => s + r.probes, 0),
      };
    });
}

/** One point of the hockey stick: an engine at one offered rate, the goal percentile there. */
export interface HockeyPoint {
  readonly engine: string;
  readonly targetRps: number;
  readonly offeredRps: number;
  readonly achievedRps: number;
  readonly latencyMs: number;
  /** True when the latency is a lower bound (requests were unfinished). */
  readonly lowerBound: boolean;
  readonly verdict: string;
  readonly passed: boolean | null;
}

/**
 * Latency (the goal's percentile, else p99) against the offered rate, one
 * line per engine over its rates: flat while the engine keeps up (achieved
 * = offered within 2%: VALID), then a knee where the queue builds and
 * latency climbs. The x is the rate the arrivals were drawn for, not the
 * achieved rate: a probe stopped early has no achieved rate to speak of,
 * and past the knee it is the offered load a user asks about. With the
 * goal's limit and each engine's peak.
 */
export function hockeyStickView(run: LoadRunRecord): {
  readonly percentile: number;
  readonly points: readonly HockeyPoint[];
  readonly slo: LatencyGoal | null;
  /** Each engine's peak, drawn at the point of its last passing probe (the first round's). */
  readonly peaks: readonly { readonly engine: string; readonly peakRps: number; readonly targetRps: number; readonly latencyMs: number }[];
  readonly insufficient: string | null;
} {
  const percentile = chartPercentile(run);
  const points = loadRateRows(run).map((r): HockeyPoint => {
    const value = percentileOf(r.summary, percentile);
    const censored = r.summary.latency.censoredFromMs;
    return {
      engine: r.label,
      targetRps: r.targetRps,
      offeredRps: r.summary.offeredRps,
      achievedRps: r.summary.achievedRps,
      latencyMs: value,
      lowerBound: censored !== null && value >= censored,
      verdict: r.summary.verdict.status,
      passed: r.passed,
    };
  });
  const peaks = loadPeakRows(run).flatMap((p) => {
    const at = points.find((pt) => pt.engine === p.label && pt.targetRps === p.rounds[0]?.lastPass);
    return p.peakRps !== null && at ? [{ engine: p.label, peakRps: p.peakRps, targetRps: at.targetRps, latencyMs: at.latencyMs }] : [];
  });
  const enough = points.length >= 2;
  return { percentile, points, slo: loadSettingsView(run).slo, peaks, insufficient: enough ? null : 'fewer than 2 rates were measured, so there is no curve to draw' };
}

/** Cumulative share of requests at or under each latency, per engine at each rate it measured. */
export interface CdfView {
  /** Which rates are drawn, for the title. */
  readonly rateText: string;
  readonly series: readonly {
    readonly engine: string;
    readonly targetRps: number;
    /** The rate's verdict over its rounds (VALID, overloaded, too short). */
    readonly verdict: string;
    readonly points: readonly { readonly latencyMs: number; readonly share: number }[];
  }[];
  readonly insufficient: string | null;
}

/** At most this many points per CDF line: quantiles at evenly spaced shares, the extremes kept. */
const CDF_POINTS = 400;

function cdfPoints(latencies: readonly number[]): { latencyMs: number; share: number }[] {
  const sorted = [...latencies].sort((a, b) => a - b);
  const n = sorted.length;
  if (n <= CDF_POINTS) return sorted.map((latencyMs, i) => ({ latencyMs, share: (i + 1) / n }));
  return Array.from({ length: CDF_POINTS }, (_v, k) => {
    const i = Math.round((k * (n - 1)) / (CDF_POINTS - 1));
    return { latencyMs: sorted[i] as number, share: (i + 1) / n };
  });
}

/**
 * The latency CDF of every engine at every rate it measured, rates
 * ascending, every round of a rate pooled: each rate the run offered is
 * drawn (a chart that picked one rate hid the others, and with them the
 * knee).
 */
export function latencyCdfView(run: LoadRunRecord): CdfView {
  const rows = loadRateRows(run);
  if (rows.length === 0) return { rateText: '', series: [], insufficient: 'no rate was measured' };
  const series = rows.map((row) => ({ engine: row.label, targetRps: row.targetRps, verdict: row.summary.verdict.status, points: cdfPoints(row.probes.flatMap((p) => p.samples.latencyMs)) }));
  const rates = [...new Set(rows.map((r) => r.targetRps))];
  return { rateText: rates.length === 1 ? `at ${rates[0]} req/s offered` : `at each offered rate (${rates.length} rates)`, series, insufficient: null };
}

/** One row of results.csv: a probe (an engine at one rate in one round), or a cell that measured none. */
export interface LoadProbeRow {
  readonly cell: LoadCell;
  readonly probe: LoadProbe | null;
  /** This round's peak interval, when the round searched one. */
  readonly roundPeak: { readonly lastPass: number | null; readonly firstFail: number | null } | null;
  /** The cell's peak across rounds (mean of the last passing rates). */
  readonly peakRps: number | null;
}

/** Every probe in the order measured, each cell's probes together; cells without probes get one row with their reason. */
export function loadProbeRows(run: LoadRunRecord): LoadProbeRow[] {
  return run.cells.flatMap((cell): LoadProbeRow[] => {
    const probes = probesOf(cell);
    const peak = cell.state === 'completed' ? cell.peak : null;
    if (probes.length === 0) return [{ cell, probe: null, roundPeak: null, peakRps: null }];
    return probes.map((probe) => {
      const round = peak?.rounds.find((r) => r.round === probe.round) ?? null;
      return { cell, probe, roundPeak: round ? { lastPass: round.lastPass, firstFail: round.firstFail } : null, peakRps: peak?.acrossRounds?.mean ?? null };
    });
  });
}

/** `1:40;2:12`: engine calls formed per batch size. */
export function batchSizesText(summary: LoadSummary): string {
  return Object.entries(summary.batchSizes).map(([size, count]) => `${size}:${count}`).join(';');
}

/** Mean requests per engine call. */
export function meanBatchSize(summary: LoadSummary): number | null {
  let calls = 0;
  let requests = 0;
  for (const [size, count] of Object.entries(summary.batchSizes)) {
    calls += count;
    requests += Number(size) * count;
  }
  return calls > 0 ? requests / calls : null;
}
