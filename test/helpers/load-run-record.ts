/**
 * A synthetic `inferbench load` record for chart and report tests: each
 * engine at each offered rate, requests evenly spaced, latency from a
 * per-engine service time that climbs as the rate nears the engine's
 * capacity, every figure summarised by the scenario's own summarizeRequests,
 * so views read it as they read a real run.
 */
import type { CompletedLoadCell, LatencyGoal, LoadProbe, LoadRunRecord, RequestSamples } from '../../src/scenarios/load/load-results.js';
import { probePassed, summarizeRequests } from '../../src/scenarios/load/load-summary.js';
import { buildSampleRun } from './sample-run.js';

export interface LoadRunShape {
  readonly engines: readonly string[];
  readonly rates: readonly number[];
  /** Mean service time per engine in ms; default 2 ms each. */
  readonly serviceMs?: Readonly<Record<string, number>>;
  readonly threads?: number | null;
  readonly slo?: LatencyGoal | null;
  /** Give each engine a peak (its highest passing rate); needs a goal. */
  readonly findPeak?: boolean;
}

function samplesAt(rate: number, serviceMs: number, n: number): RequestSamples {
  const load = (rate * serviceMs) / 1000;
  const scheduledMs = Array.from({ length: n }, (_v, i) => (i * 1000) / rate);
  // Under capacity: a queueing delay that grows with the load; over it, a backlog that grows request by request.
  const latencyMs = scheduledMs.map((_t, i) => (load < 0.95 ? serviceMs * (1 + load / (1 - load)) * (0.8 + ((i * 7) % 10) / 25) : serviceMs * (1 + i * (load - 0.9))));
  const nulls = (v: number | null) => scheduledMs.map(() => v);
  return {
    scheduledMs,
    latencyMs,
    completed: scheduledMs.map(() => 1),
    queueMs: latencyMs.map((l) => Math.max(0, l - serviceMs)),
    prepareMs: nulls(0.1),
    engineMs: nulls(serviceMs),
    postMs: nulls(0.05),
    batchSize: nulls(1),
    batchId: scheduledMs.map((_t, i) => i),
    enqueueLateMs: nulls(0),
  };
}

export function buildLoadRun(shape: LoadRunShape): LoadRunRecord {
  const base = buildSampleRun();
  const slo = shape.slo ?? null;
  const threads = shape.threads ?? null;
  const cells = shape.engines.map((engine): CompletedLoadCell => {
    const serviceMs = shape.serviceMs?.[engine] ?? 2;
    const probes = shape.rates.map((targetRps): LoadProbe => {
      const samples = samplesAt(targetRps, serviceMs, 40);
      const summary = summarizeRequests(samples, { durationMs: (39 * 1000) / targetRps, minQueries: 10, maxBatch: 1, slo, endedEarly: null, scheduleComplete: true });
      return { round: 0, targetRps, purpose: 'rate', warmupRequests: 0, endedEarly: null, samples, summary, passed: probePassed(summary) };
    });
    const passing = probes.filter((p) => p.passed === true).map((p) => p.targetRps);
    const lastPass = passing.length > 0 ? Math.max(...passing) : null;
    const firstFail = probes.find((p) => p.passed === false && (lastPass === null || p.targetRps > lastPass))?.targetRps ?? null;
    const peak = shape.findPeak && slo && lastPass !== null ? { rounds: [{ round: 0, lastPass, firstFail, probes: probes.length }], acrossRounds: { mean: lastPass, min: lastPass, max: lastPass, ci95: null } } : null;
    return {
      model: 'tiny-bert',
      engine,
      batchSize: 1,
      requestedThreads: threads,
      state: 'completed',
      session: { engine, backend: 'cpu', threads: threads ?? 2, precision: 'fp32', versions: {} },
      openMs: 10,
      serviceMs: { batchOne: serviceMs, maxBatch: serviceMs },
      rounds: 1,
      probes,
      peak,
    };
  });
  const settings = { arrival: 'poisson', burstiness: 1, seed: 1, durationMs: 2000, minQueries: 10, warmupMs: 0, maxBatch: 1, maxWaitMs: 0, slo };
  return {
    ...base,
    kind: 'load',
    config: { settings, rounds: 1 },
    models: [{ name: 'tiny-bert', source: '/models/tiny-bert', sizeBytes: 1000, notes: [] }],
    cells,
  } as unknown as LoadRunRecord;
}
