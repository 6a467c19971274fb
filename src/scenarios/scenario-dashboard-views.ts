/**
 * The dashboard's views of a `generate` and a `train` benchmark: each cell's
 * figures as the terminal report shows them (TTFT and TPOT; step time,
 * samples/s and loss) and the same vega-lite charts as their PNG files
 * (ttft.png, tpot.png, step-time.png). The classification views are in
 * src/runs/scenarios/classify-scenario.ts; these runs have other cells, so they get their own.
 */
import type { GenerationCell, GenerationRunRecord } from './generate/generation-results.js';
import type { BetweenRounds } from '../core/results.js';
import type { SampleStatistics } from '../core/statistics.js';
import type { TrainingCell, TrainingRunRecord } from './train/training-results.js';
import { generationChartSpec } from './generate/generation-files.js';
import { orderedGenerationCells } from './generate/generation-report.js';
import { trainingChartSpec } from './train/training-files.js';
import { orderedTrainingCells } from './train/training-report.js';

/** The figures of one statistic a table cell shows. */
interface Figures {
  readonly mean: number;
  readonly p50: number;
  readonly p90: number;
  readonly p99: number;
}

function figures(s: SampleStatistics | null): Figures | null {
  return s === null ? null : { mean: s.mean, p50: s.p50, p90: s.p90, p99: s.p99 };
}

function interval(rounds: BetweenRounds | null | undefined): { readonly low: number; readonly high: number } | null {
  return rounds?.ci95 ? { low: rounds.ci95.low, high: rounds.ci95.high } : null;
}

/** What every row says about its cell: which one it is, what ran, and how it ended. */
function identity(cell: GenerationCell | TrainingCell) {
  const session = cell.state === 'skipped' ? undefined : cell.session;
  return {
    model: cell.model,
    engine: cell.engine,
    backend: session?.backend ?? null,
    requestedThreads: cell.requestedThreads,
    threads: session?.threads ?? null,
    batchSize: cell.batchSize,
    state: cell.state,
    reason: cell.state === 'completed' ? null : cell.reason,
  };
}

/** `kind: 'generate'`: a row per cell (TTFT, TPOT, decode tokens/s, peak RSS) and the TTFT and TPOT charts. */
export function generationViews(run: GenerationRunRecord) {
  const cells = orderedGenerationCells(run);
  const completed = cells.filter((c) => c.state === 'completed');
  return {
    kind: 'generate' as const,
    rows: cells.map((c) => ({
      ...identity(c),
      promptLength: c.promptLength,
      newTokens: c.newTokens,
      ttft: c.state === 'completed' ? figures(c.ttft) : null,
      tpot: c.state === 'completed' ? figures(c.tpot) : null,
      // The 95% interval of the mean across rounds (as the terminal table's); null with one round or an older record.
      ttftCi95: c.state === 'completed' ? interval(c.betweenRounds?.ttft) : null,
      tpotCi95: c.state === 'completed' ? interval(c.betweenRounds?.tpot) : null,
      verdict: c.state === 'completed' ? (c.verdict?.status ?? null) : null,
      decodeTokensPerSecond: c.state === 'completed' ? c.decodeTokensPerSecond : null,
      peakRssBytes: c.state === 'completed' ? c.peakRssBytes : null,
    })),
    charts: {
      ttft: completed.length > 0 ? generationChartSpec(run, 'ttft') : null,
      tpot: completed.some((c) => c.tpot !== null) ? generationChartSpec(run, 'tpot') : null,
    },
  };
}

/** `kind: 'train'`: a row per cell (step time with its interval across rounds, samples/s, loss) and the step-time chart. */
export function trainingViews(run: TrainingRunRecord) {
  const cells = orderedTrainingCells(run);
  return {
    kind: 'train' as const,
    rows: cells.map((c) => ({
      ...identity(c),
      sequenceLength: c.sequenceLength,
      step: c.state === 'completed' ? figures(c.stepTime) : null,
      stepCi95HalfWidth: c.state === 'completed' ? (c.betweenRounds.ci95?.halfWidth ?? null) : null,
      samplesPerSecond: c.state === 'completed' ? c.samplesPerSecond : null,
      firstLoss: c.state === 'completed' ? c.training.firstLoss : null,
      lastLoss: c.state === 'completed' ? c.training.lastLoss : null,
      verdict: c.state === 'completed' ? c.verdict.status : null,
    })),
    charts: { step: cells.some((c) => c.state === 'completed') ? trainingChartSpec(run) : null },
  };
}
