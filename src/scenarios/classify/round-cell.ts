/**
 * Turns a cell's rounds into its record: per-batch statistics pooled over
 * every round, the interval across round means, the verdict, and the first
 * round's warm pass as the cell's cold figures. Pure, so an in-process sweep,
 * an isolated one and `Benchmark.execute` all assemble cells the same way.
 */
import { hostNoiseWarnings } from '../../core/host-noise.js';
import type { CellKey, CompletedCell } from '../../core/results.js';
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

/** The completed cell of `rounds` (at least one, in the order they ran). */
export function assembleCell(key: CellKey, rounds: readonly RoundFigures[], opts: AssembleOptions): CompletedCell {
  const first = rounds[0];
  if (!first) throw new RangeError('a cell needs at least one measured round');
  const runMs = rounds.flatMap((r) => r.round.runMs);
  const prepareMs = rounds.flatMap((r) => r.round.prepareMs);
  const items = rounds.flatMap((r) => r.round.items);
  const forwardMs = rounds.flatMap((r) => r.forwardMs);
  const latency = computeStatistics(runMs);
  const itemsTotal = items.reduce((a, b) => a + b, 0);
  const betweenRounds = betweenRoundsOf(rounds.map((r) => r.round.meanMs));
  // Pipeline engines time their raw forward inside each call; kept only when every timed batch has one.
  const hasForward = forwardMs.length === runMs.length;
  const partial = rounds.filter((r) => r.partialPass).reduce<RoundFigures | null>((a, r) => (a === null || r.round.runMs.length > a.round.runMs.length ? r : a), null);
  const cut = rounds.find((r) => r.warmPassCut);
  const interrupted = opts.interrupted || rounds.some((r) => r.interrupted);
  const peak = rounds.reduce((a, r) => (r.memory.peakRssBytes > a.memory.peakRssBytes ? r : a), first);
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
    loadMs: first.round.loadMs,
    warmupBatches: first.warmupMs.length,
    samples: { runMs, prepareMs, items, warmupMs: first.warmupMs, ...(hasForward ? { forwardMs } : {}) },
    latency,
    prepare: computeStatistics(prepareMs),
    ...(hasForward ? { forward: computeStatistics(forwardMs) } : {}),
    totalMs: latency.total,
    itemsTotal,
    samplesPerSecond: throughput(itemsTotal, latency.total),
    peakRssBytes: peak.memory.peakRssBytes,
    verdict,
    memory: peak.memory,
    coldStart: { loadMs: first.round.loadMs, firstBatchMs: first.firstBatchMs },
    rounds: rounds.map((r) => r.round),
    betweenRounds,
    firstPass: first.firstPass,
    ...(interrupted ? { interrupted: true } : {}),
  };
}

/** True when the cell's rounds saw whole passes over the rows, so its mean weights every row equally. */
export function sawWholePasses(cell: CompletedCell): boolean {
  if (!cell.rounds) return true; // Records from before rounds: one pass at least was always measured.
  return cell.rounds.length > 0 && cell.rounds.every((r) => r.passes >= 1);
}
