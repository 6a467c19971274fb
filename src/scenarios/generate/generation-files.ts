/**
 * Files of `inferbench generate`: results.json (the whole record with raw
 * per-token times), results.csv and results.parquet (one row per cell, full
 * precision in ms, bytes and tokens/s), and ttft.png / tpot.png. Every file
 * is written atomically by the same helper as the classification run's.
 */
import type { TopLevelSpec } from 'vega-lite';
import type { CompletedGenerationCell, GenerationCell, GenerationRunRecord } from './generation-results.js';
import { orderedGenerationCells } from './generation-report.js';
import { cpuFallbackField, placementNodesField } from '../../../reports/placement-text.js';
import { formatDuration } from '../../core/units.js';
import type { RunChart, WriteFs } from '../../../reports/write-run.js';
import { CELL_DATA_FILES, engineBarChartSpec, writeCellFiles, sessionColumns, type CellColumn, type ColumnKind } from '../../../reports/cell-files.js';

/** File names inside the run folder. */
export const GENERATION_FILES = {
  ...CELL_DATA_FILES,
  ttftPng: 'ttft.png',
  tpotPng: 'tpot.png',
} as const;

type Kind = ColumnKind;
type GenerationColumn = CellColumn<GenerationCell, GenerationRunRecord>;

const sessionOf = (c: GenerationCell) => (c.state === 'skipped' ? undefined : c.session);

function measured(name: string, kind: Kind, f: (c: CompletedGenerationCell) => number | null): GenerationColumn {
  return { name, kind, value: (c) => (c.state === 'completed' ? f(c) : null) };
}

/** Columns of the CSV and Parquet files, in order. */
const COLUMNS: readonly GenerationColumn[] = [
  ...sessionColumns<GenerationCell, GenerationRunRecord>(),
  { name: 'ep_nodes', kind: 'string', value: (c) => placementNodesField(sessionOf(c)?.placement) },
  { name: 'ep_cpu_fallback_ops', kind: 'string', value: (c) => cpuFallbackField(sessionOf(c)?.placement) },
  { name: 'batch_size', kind: 'int', value: (c) => c.batchSize },
  { name: 'prompt_length', kind: 'int', value: (c) => c.promptLength },
  { name: 'new_tokens', kind: 'int', value: (c) => c.newTokens },
  // `interrupted`: Ctrl-C stopped a completed cell before its last round; its rounds are kept, never VALID (as run's CSV).
  { name: 'state', kind: 'string', value: (c) => (c.state === 'completed' && c.interrupted ? 'interrupted' : c.state) },
  { name: 'reason', kind: 'string', value: (c) => (c.state === 'completed' ? null : c.reason) },
  measured('runs', 'int', (c) => c.samples.length),
  measured('rounds', 'int', (c) => c.betweenRounds?.ttft.rounds ?? 1),
  measured('warmup_runs', 'int', (c) => c.warmupRuns),
  measured('ttft_mean_ms', 'double', (c) => c.ttft.mean),
  measured('ttft_p50_ms', 'double', (c) => c.ttft.p50),
  measured('ttft_p90_ms', 'double', (c) => c.ttft.p90),
  measured('ttft_p99_ms', 'double', (c) => c.ttft.p99),
  // 95% interval of the mean of round means (betweenRoundsOf, as run's ci95_*); empty with one round.
  measured('ttft_round_mean_ms', 'double', (c) => c.betweenRounds?.ttft.mean ?? null),
  measured('ttft_ci95_low_ms', 'double', (c) => c.betweenRounds?.ttft.ci95?.low ?? null),
  measured('ttft_ci95_high_ms', 'double', (c) => c.betweenRounds?.ttft.ci95?.high ?? null),
  measured('tpot_mean_ms', 'double', (c) => c.tpot?.mean ?? null),
  measured('tpot_p50_ms', 'double', (c) => c.tpot?.p50 ?? null),
  measured('tpot_p90_ms', 'double', (c) => c.tpot?.p90 ?? null),
  measured('tpot_p99_ms', 'double', (c) => c.tpot?.p99 ?? null),
  measured('tpot_round_mean_ms', 'double', (c) => c.betweenRounds?.tpot?.mean ?? null),
  measured('tpot_ci95_low_ms', 'double', (c) => c.betweenRounds?.tpot?.ci95?.low ?? null),
  measured('tpot_ci95_high_ms', 'double', (c) => c.betweenRounds?.tpot?.ci95?.high ?? null),
  { name: 'verdict', kind: 'string', value: (c) => (c.state === 'completed' ? c.verdict?.status : null) },
  { name: 'verdict_reasons', kind: 'string', value: (c) => (c.state === 'completed' ? c.verdict?.reasons.join('; ') : null) },
  { name: 'verdict_warnings', kind: 'string', value: (c) => (c.state === 'completed' ? c.verdict?.warnings?.join('; ') : null) },
  measured('decode_tokens_per_s', 'double', (c) => c.decodeTokensPerSecond),
  measured('prefill_tokens_per_s', 'double', (c) => c.prefillTokensPerSecond),
  measured('peak_rss_bytes', 'double', (c) => c.peakRssBytes),
  measured('peak_gpu_bytes', 'double', (c) => c.peakGpuBytes),
  measured('early_stops', 'int', (c) => c.earlyStops),
  measured('open_ms', 'double', (c) => c.openMs),
];

/** Header names of the CSV and Parquet files. */
export const GENERATION_COLUMNS: readonly string[] = COLUMNS.map((c) => c.name);

/**
 * Bars of one latency statistic per engine, grouped by configuration
 * (batch × prompt × new tokens), with p90 as a tick. Only completed cells
 * are drawn; the subtitle names the others so a missing bar is never read as 0.
 */
export function generationChartSpec(run: GenerationRunRecord, metric: 'ttft' | 'tpot'): TopLevelSpec {
  const cells = orderedGenerationCells(run);
  const completed = cells.filter((c): c is CompletedGenerationCell => c.state === 'completed' && (metric === 'ttft' || c.tpot !== null));
  const engines = [...new Set(cells.map((c) => c.engine))];
  const configOf = (c: GenerationCell) => `batch ${c.batchSize} · prompt ${c.promptLength} · new ${c.newTokens}`;
  const values = completed.map((c) => {
    const s = metric === 'ttft' ? c.ttft : c.tpot;
    const ci = (metric === 'ttft' ? c.betweenRounds?.ttft : c.betweenRounds?.tpot)?.ci95;
    return { engine: c.engine, config: configOf(c), mean: s?.mean ?? 0, p90: s?.p90 ?? 0, label: formatDuration(s?.mean ?? 0), ...(ci ? { low: ci.low, high: ci.high } : {}) };
  });
  const missing = cells.filter((c) => c.state !== 'completed').map((c) => `${c.engine} (${configOf(c)}): ${c.state}`);
  const title = metric === 'ttft' ? 'Time to first token (prefill + first sample)' : 'Time per output token after the first';
  return engineBarChartSpec({
    title: `${run.models[0]?.name ?? ''} – ${title}, lower is better`,
    yTitle: `${metric.toUpperCase()} (ms)`,
    environment: run.environment,
    engines,
    bars: values,
    missing,
  });
}

/** The charts of a generate run folder: ttft.png and tpot.png, each with something to draw or the reason it is not drawn. */
export function generationCharts(run: GenerationRunRecord): RunChart[] {
  const completed = run.cells.filter((c): c is CompletedGenerationCell => c.state === 'completed');
  return [
    completed.length > 0 ? { file: GENERATION_FILES.ttftPng, spec: generationChartSpec(run, 'ttft') } : { file: GENERATION_FILES.ttftPng, skipped: 'no cell completed' },
    completed.some((c) => c.tpot !== null)
      ? { file: GENERATION_FILES.tpotPng, spec: generationChartSpec(run, 'tpot') }
      : { file: GENERATION_FILES.tpotPng, skipped: completed.length > 0 ? 'no completed cell generated a token after the first' : 'no cell completed' },
  ];
}

/**
 * Writes the run's files, data first and charts last, each atomically.
 * Returns the paths written; a chart that fails to render is reported in
 * `warnings` and never costs the data files.
 */
export async function writeGenerationFiles(
  run: GenerationRunRecord,
  dir: string,
  options: { png: boolean; fs?: WriteFs },
): Promise<{ paths: string[]; warnings: string[] }> {
  return writeCellFiles(
    dir,
    {
      run,
      columns: COLUMNS,
      cells: orderedGenerationCells(run),
      charts: options.png ? generationCharts(run) : [],
    },
    options.fs,
  );
}
