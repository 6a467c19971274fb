/**
 * Turns a cell's rounds into its record: per-batch statistics pooled over
 * every round, the interval across round means, the verdict, and the first
 * round's warm pass as the cell's cold figures. Pure, so an in-process sweep,
 * an isolated one and `Benchmark.execute` all assemble cells the same way.
 */
import { hostNoiseWarnings } from '../../core/host-noise.js';
import type { AccuracyRows, CellEnergy, CellKey, CellMemory, CompletedCell } from '../../core/results.js';
import { maxGpuMemory, sumEnergy } from '../../core/energy.js';
import { betweenRoundsOf, computeStatistics, throughput } from '../../core/statistics.js';
import { verdictOfRounds, type StopRule } from '../../core/stop-rule.js';
import type { RoundFigures } from './measure-cell.js';

/** How the assembled cell is judged. */
export interface AssembleOptions {
  /** The whole cell's stop rule. */
  readonly rule: StopRule;
  readonly maxCv: number;
  readonly roundsPlanned: number;
  /** Ctrl-C ended the sweep before this cell ran every round (or inside one). */
  readonly interrupted: boolean;
  /** Rows every pass covers, when the caller counted them: gives the exact batches in a pass even when the warm pass was cut. */
  readonly rows?: number;
}

/** Batches seen of one pass; exact from the row count when known, else from what the round saw. */
function passShare(seen: number, r: RoundFigures, batchSize: number, rows: number | undefined) {
  return rows !== undefined ? { seen, of: Math.ceil(rows / batchSize), exact: true } : { seen, of: r.batchesPerPass, exact: r.batchesPerPassKnown };
}

/**
 * Accuracy over one whole pass: the first round whose warm pass saw every
 * row; when none did, null with how many rows the engine saw, so no engine's
 * accuracy is over fewer rows than another's.
 */
function accuracyOf(rounds: readonly RoundFigures[], rows: number | undefined): { accuracy: number | null; accuracyRows: AccuracyRows } {
  const whole = rounds.find((r) => r.accuracy.complete);
  if (whole) {
    const a = whole.accuracy;
    return { accuracy: a.counted > 0 ? a.correct / a.counted : null, accuracyRows: { counted: a.counted, seen: a.seen, of: rows ?? a.seen } };
  }
  const most = rounds.reduce((a, r) => (r.accuracy.seen > a.accuracy.seen ? r : a));
  return { accuracy: null, accuracyRows: { counted: most.accuracy.counted, seen: most.accuracy.seen, of: rows ?? most.accuracy.seen } };
}

/** The highest GPU memory peak over the rounds (the RSS figures come from the round with the highest RSS peak). */
function gpuPeak(rounds: readonly RoundFigures[]): Pick<CellMemory, 'gpu'> {
  const gpu = maxGpuMemory(rounds.map((r) => r.memory.gpu));
  return gpu ? { gpu } : {};
}

/** Joules and rows summed over the rounds, so J/sample pools every timed loop; absent when rounds lack it. */
function energyOf(rounds: readonly RoundFigures[]): { energy?: CellEnergy } {
  const gpu = sumEnergy(rounds.map((r) => r.energy?.gpu));
  const cpu = sumEnergy(rounds.map((r) => r.energy?.cpu));
  return gpu && cpu ? { energy: { gpu, cpu } } : {};
}

/** STS Spearman of the first round that saw every pair of a pass; absent without STS pairs, null when no round saw them all. */
function stsOf(rounds: readonly RoundFigures[]): Pick<CompletedCell, 'sts'> {
  if (!rounds.some((r) => r.sts)) return {};
  const whole = rounds.find((r) => r.sts?.complete === true)?.sts;
  return { sts: whole ? { spearman: whole.spearman, pairs: whole.pairs, ...(whole.why !== undefined ? { why: whole.why } : {}) } : null };
}

/** The profile of the last round that ran the profiled pass (`run --profile`); absent otherwise. */
function profileOf(rounds: readonly RoundFigures[]): Pick<CompletedCell, 'profile'> {
  const profile = [...rounds].reverse().find((r) => r.profile)?.profile;
  return profile ? { profile } : {};
}

/** The completed cell of `rounds` (at least one, in the order they ran). */
export function assembleCell(key: CellKey, rounds: readonly RoundFigures[], opts: AssembleOptions): CompletedCell {
  const first = rounds[0];
  if (!first) throw new RangeError('a cell needs at least one measured round');
  const runMs = rounds.flatMap((r) => r.round.runMs);
  const prepareMs = rounds.flatMap((r) => r.round.prepareMs);
  const items = rounds.flatMap((r) => r.round.items);
  const forwardMs = rounds.flatMap((r) => r.forwardMs);
  const endToEndMs = rounds.flatMap((r) => r.round.endToEndMs ?? []);
  const latency = computeStatistics(runMs);
  const itemsTotal = items.reduce((a, b) => a + b, 0);
  const betweenRounds = betweenRoundsOf(rounds.map((r) => r.round.meanMs));
  // Pipeline engines time their raw forward inside each call; kept only when every timed batch has one.
  const hasForward = forwardMs.length === runMs.length;
  const partial = rounds.filter((r) => r.partialPass).reduce<RoundFigures | null>((a, r) => (a === null || r.round.runMs.length > a.round.runMs.length ? r : a), null);
  const cut = rounds.find((r) => r.warmPassCut);
  const interrupted = opts.interrupted || rounds.some((r) => r.interrupted);
  const peak = rounds.reduce((a, r) => (r.memory.peakRssBytes > a.memory.peakRssBytes ? r : a), first);
  const pass = opts.rows !== undefined ? { rows: opts.rows, batches: Math.ceil(opts.rows / key.batchSize) } : first.firstPass.items > 0 && !first.warmPassCut ? { rows: first.firstPass.items, batches: first.firstPass.batches } : null;
  const verdict = verdictOfRounds({
    latency,
    betweenRounds,
    rule: opts.rule,
    maxCv: opts.maxCv,
    roundsPlanned: opts.roundsPlanned,
    stoppedAtMax: rounds.some((r) => r.stoppedAtMax),
    partialPass: partial ? passShare(partial.round.runMs.length, partial, key.batchSize, opts.rows) : null,
    warmPassCut: cut ? passShare(cut.firstPass.batches, cut, key.batchSize, opts.rows) : null,
    interrupted,
    warnings: hostNoiseWarnings(rounds.map((r) => r.round)),
  });
  return {
    ...key,
    state: 'completed',
    session: first.session,
    openMs: first.round.openMs,
    warmupBatches: first.warmupMs.length,
    samples: { runMs, prepareMs, items, warmupMs: first.warmupMs, ...(hasForward ? { forwardMs } : {}), ...(endToEndMs.length === runMs.length ? { endToEndMs } : {}) },
    latency,
    prepare: computeStatistics(prepareMs),
    ...(hasForward ? { forward: computeStatistics(forwardMs) } : {}),
    totalMs: latency.total,
    itemsTotal,
    samplesPerSecond: throughput(itemsTotal, latency.total),
    peakRssBytes: peak.memory.peakRssBytes,
    verdict,
    memory: { ...peak.memory, ...gpuPeak(rounds) },
    ...energyOf(rounds),
    coldStart: first.round.coldStart ?? { openMs: first.round.openMs, firstBatchMs: first.firstBatchMs },
    rounds: rounds.map((r) => r.round),
    betweenRounds,
    firstPass: first.firstPass,
    ...(pass ? { pass } : {}),
    ...(first.rowSet ? { rowSet: first.rowSet } : {}),
    ...accuracyOf(rounds, pass?.rows),
    ...stsOf(rounds),
    ...(interrupted ? { interrupted: true } : {}),
    ...profileOf(rounds),
  };
}

