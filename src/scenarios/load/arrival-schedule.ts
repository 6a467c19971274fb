/**
 * Arrival schedules, drawn in advance from a seed, before a probe starts:
 * nothing the engine does can move an arrival (an open loop, as in
 * LoadGen's server scenario and vLLM's bench serve).
 *
 * - poisson: exponential gaps (LoadGen's server scenario, mlcommons/inference
 *   loadgen/loadgen.cc ScheduleDistribution<Server>);
 * - constant: every gap 1/rate;
 * - gamma: gaps ~ Gamma(shape = burstiness, scale = 1 / (rate × burstiness))
 *   as vLLM defines it (benchmarks/benchmark_serving.py get_request): mean
 *   1/rate at any burstiness, coefficient of variation 1/√burstiness;
 *   burstiness 1 is Poisson, below 1 burstier, above 1 more even. Unlike
 *   newer vLLM we do not rescale the gaps to make the last arrival land on
 *   n/rate: the offered rate is measured and reported instead.
 *
 * The gaps are drawn at unit rate from the stream of (seed, round) and
 * divided by the rate, so every rate of a round shares one shape (common
 * random numbers: neighbouring rates of a peak search differ by their rate,
 * not by their luck), and every engine sees the same arrivals.
 */
import type { ArrivalProcess } from './load-results.js';

/** splitmix32: spreads a seed over the generator's state. */
function splitmix32(state: number): () => number {
  let s = state >>> 0;
  return () => {
    s = (s + 0x9e3779b9) >>> 0;
    let z = s;
    z = Math.imul(z ^ (z >>> 16), 0x85ebca6b) >>> 0;
    z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35) >>> 0;
    return (z ^ (z >>> 16)) >>> 0;
  };
}

/**
 * xoshiro128** (Blackman & Vigna): a small, well-tested generator whose
 * output is the same on every platform, so a seed replays exactly.
 * Returns uniform numbers in [0, 1) with 53 random bits.
 */
export function seededUniform(seed: number, stream = 0): () => number {
  const mix = splitmix32((seed >>> 0) ^ Math.imul(stream + 1, 0x632be5ab));
  const s = new Uint32Array([mix(), mix(), mix(), mix()]);
  if (s.every((v) => v === 0)) s[0] = 1;
  const next32 = (): number => {
    const s0 = s[0] as number;
    const s1 = s[1] as number;
    const result = Math.imul(rotl(Math.imul(s1, 5) >>> 0, 7), 9) >>> 0;
    const t = (s1 << 9) >>> 0;
    s[2] = (s[2] as number) ^ s0;
    s[3] = (s[3] as number) ^ s1;
    s[1] = s1 ^ (s[2] as number);
    s[0] = s0 ^ (s[3] as number);
    s[2] = (s[2] as number) ^ t;
    s[3] = rotl(s[3] as number, 11);
    return result;
  };
  return () => ((next32() >>> 5) * 67108864 + (next32() >>> 6)) / 9007199254740992;
}

function rotl(x: number, k: number): number {
  return ((x << k) | (x >>> (32 - k))) >>> 0;
}

/** A standard normal variate (Box–Muller). */
function normal(uniform: () => number): number {
  const u = 1 - uniform();
  return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * uniform());
}

/** Gamma(shape, 1) by Marsaglia & Tsang (2000); shape < 1 through Gamma(shape + 1) · U^(1/shape). */
export function gammaVariate(shape: number, uniform: () => number): number {
  if (!(shape > 0)) throw new RangeError(`gamma shape must be above 0, got ${shape}`);
  if (shape < 1) return gammaVariate(shape + 1, uniform) * (1 - uniform()) ** (1 / shape);
  const d = shape - 1 / 3;
  const c = 1 / Math.sqrt(9 * d);
  for (;;) {
    let x: number;
    let v: number;
    do {
      x = normal(uniform);
      v = 1 + c * x;
    } while (v <= 0);
    v = v * v * v;
    const u = 1 - uniform();
    if (Math.log(u) < 0.5 * x * x + d - d * v + d * Math.log(v)) return d * v;
  }
}

/** Inter-arrival gaps of mean 1 for one process, in draw order. */
export function unitGaps(arrival: ArrivalProcess, burstiness: number, seed: number, stream: number): () => number {
  if (arrival === 'constant') return () => 1;
  const uniform = seededUniform(seed, stream);
  if (arrival === 'poisson') return () => -Math.log(1 - uniform());
  return () => gammaVariate(burstiness, uniform) / burstiness;
}

/** What a probe's schedule is drawn for. */
export interface ScheduleSpec {
  readonly arrival: ArrivalProcess;
  readonly burstiness: number;
  readonly seed: number;
  /** The round: each round draws its own arrivals, every engine the same ones. */
  readonly round: number;
  readonly rateRps: number;
  readonly warmupMs: number;
  readonly durationMs: number;
  readonly minQueries: number;
}

/** A probe's arrivals, ms from the probe's start; the first `warmup` are warm-up requests. */
export interface ArrivalSchedule {
  readonly timesMs: Float64Array;
  readonly warmup: number;
}

/**
 * The arrivals of one probe: the first at 0, warm-up arrivals before
 * `warmupMs`, then measured arrivals until they span at least `durationMs`
 * and number at least `minQueries` (both minimums, as LoadGen generates
 * its server queries).
 */
export function drawSchedule(spec: ScheduleSpec): ArrivalSchedule {
  if (!(spec.rateRps > 0 && Number.isFinite(spec.rateRps))) throw new RangeError(`a rate must be above 0, got ${spec.rateRps}`);
  const gap = unitGaps(spec.arrival, spec.burstiness, spec.seed, spec.round);
  const scale = 1000 / spec.rateRps;
  const times: number[] = [];
  let t = 0;
  let warmup = 0;
  let firstMeasured = -1;
  for (;;) {
    times.push(t);
    if (firstMeasured < 0) {
      if (t < spec.warmupMs) warmup++;
      else firstMeasured = t;
    }
    const measured = times.length - warmup;
    if (firstMeasured >= 0 && measured >= spec.minQueries && t - firstMeasured >= spec.durationMs) break;
    t += gap() * scale;
  }
  return { timesMs: Float64Array.from(times), warmup };
}
