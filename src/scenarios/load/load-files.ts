/**
 * Files of `inferbench load`: results.json (the whole record, every
 * request of every probe), results.csv and results.parquet (one row per
 * probe: an engine at one rate in one round, `scenario` = `load`),
 * samples.parquet (one row per measured request) and the charts
 * hockey-stick.png and latency-cdf.png. Written atomically like the other
 * runs' files, data first.
 */
import type { LoadCell, LoadProbe, LoadRunRecord, LoadSummary } from './load-results.js';
import { CELL_DATA_FILES, renderCellsParquet, writeCellFiles, type CellColumn, type ColumnKind } from '../../../reports/cell-files.js';
import { formatVersions } from '../../../reports/run-summary.js';
import { hockeyStickChartSpec, latencyCdfChartSpec } from './load-charts.js';
import { batchSizesText, hockeyStickView, meanBatchSize, loadProbeRows, loadSettingsView, type LoadProbeRow } from './load-views.js';
import type { RunChart, WriteFs } from '../../../reports/write-run.js';

/** File names inside the run folder. */
export const SERVER_FILES = {
  ...CELL_DATA_FILES,
  samplesParquet: 'samples.parquet',
  hockeyPng: 'hockey-stick.png',
  cdfPng: 'latency-cdf.png',
} as const;

type Column = CellColumn<LoadProbeRow, LoadRunRecord>;

const sessionOf = (c: LoadCell) => (c.state === 'skipped' ? undefined : c.session);

function probe(name: string, kind: ColumnKind, f: (p: LoadProbe, s: LoadSummary) => number | string | null | undefined): Column {
  return { name, kind, value: (row) => (row.probe ? f(row.probe, row.probe.summary) : null) };
}

/** Columns of results.csv and results.parquet, in order. */
const COLUMNS: readonly Column[] = [
  { name: 'run_id', kind: 'string', value: (_r, run) => run.id },
  { name: 'scenario', kind: 'string', value: () => 'load' },
  { name: 'model', kind: 'string', value: (r) => r.cell.model },
  { name: 'engine', kind: 'string', value: (r) => r.cell.engine },
  { name: 'backend', kind: 'string', value: (r) => sessionOf(r.cell)?.backend },
  { name: 'threads', kind: 'int', value: (r) => sessionOf(r.cell)?.threads },
  { name: 'requested_threads', kind: 'int', value: (r) => r.cell.requestedThreads },
  { name: 'precision', kind: 'string', value: (r) => sessionOf(r.cell)?.precision },
  { name: 'versions', kind: 'string', value: (r) => formatVersions(sessionOf(r.cell)?.versions ?? {}, ';') },
  { name: 'state', kind: 'string', value: (r) => r.cell.state },
  { name: 'reason', kind: 'string', value: (r) => (r.cell.state === 'completed' ? null : r.cell.reason) },
  { name: 'arrival', kind: 'string', value: (_r, run) => loadSettingsView(run).arrival },
  { name: 'burstiness', kind: 'double', value: (_r, run) => loadSettingsView(run).burstiness },
  { name: 'seed', kind: 'double', value: (_r, run) => loadSettingsView(run).seed },
  { name: 'max_batch', kind: 'int', value: (_r, run) => loadSettingsView(run).maxBatch },
  { name: 'max_wait_ms', kind: 'double', value: (_r, run) => loadSettingsView(run).maxWaitMs },
  probe('round', 'int', (p) => p.round + 1),
  probe('purpose', 'string', (p) => p.purpose),
  probe('target_rps', 'double', (p) => p.targetRps),
  probe('offered_rps', 'double', (_p, s) => s.offeredRps),
  probe('achieved_rps', 'double', (_p, s) => s.achievedRps),
  probe('duration_s', 'double', (_p, s) => s.measuredMs / 1000),
  probe('requests', 'int', (_p, s) => s.requests),
  probe('completed_requests', 'int', (_p, s) => s.completedRequests),
  probe('unfinished_requests', 'int', (_p, s) => s.unfinished),
  probe('warmup_requests', 'int', (p) => p.warmupRequests),
  probe('mean_ms', 'double', (_p, s) => s.latency.mean),
  probe('p50_ms', 'double', (_p, s) => s.latency.p50),
  probe('p90_ms', 'double', (_p, s) => s.latency.p90),
  probe('p95_ms', 'double', (_p, s) => s.latency.p95),
  probe('p99_ms', 'double', (_p, s) => s.latency.p99),
  probe('p999_ms', 'double', (_p, s) => s.latency.p999),
  probe('max_ms', 'double', (_p, s) => s.latency.max),
  probe('latency_lower_bound_from_ms', 'double', (_p, s) => s.latency.censoredFromMs),
  probe('queue_wait_mean_ms', 'double', (_p, s) => s.queueWait.mean),
  probe('queue_wait_p99_ms', 'double', (_p, s) => s.queueWait.p99),
  probe('prepare_mean_ms', 'double', (_p, s) => s.parts.prepareMs),
  probe('engine_mean_ms', 'double', (_p, s) => s.parts.engineMs),
  probe('post_mean_ms', 'double', (_p, s) => s.parts.postMs),
  probe('batch_sizes', 'string', (_p, s) => batchSizesText(s)),
  probe('mean_batch_size', 'double', (_p, s) => meanBatchSize(s)),
  probe('queue_depth_first_quarter', 'double', (_p, s) => s.queueDepth.firstQuarter),
  probe('queue_depth_last_quarter', 'double', (_p, s) => s.queueDepth.lastQuarter),
  probe('slo', 'string', (_p, s) => (s.slo ? `p${s.slo.percentile}<=${s.slo.limitMs}ms` : null)),
  probe('slo_value_ms', 'double', (_p, s) => s.slo?.valueMs ?? null),
  probe('slo_met', 'int', (_p, s) => (s.slo ? (s.slo.met ? 1 : 0) : null)),
  probe('over_slo_share', 'double', (_p, s) => s.slo?.overShare ?? null),
  probe('goodput_rps', 'double', (_p, s) => s.slo?.goodputRps ?? null),
  probe('passed', 'int', (p) => (p.passed === null ? null : p.passed ? 1 : 0)),
  probe('verdict', 'string', (_p, s) => s.verdict.status),
  probe('verdict_reasons', 'string', (_p, s) => s.verdict.reasons.join('; ')),
  probe('ended_early', 'string', (p) => p.endedEarly),
  { name: 'round_last_pass_rps', kind: 'double', value: (r) => r.roundPeak?.lastPass ?? null },
  { name: 'round_first_fail_rps', kind: 'double', value: (r) => r.roundPeak?.firstFail ?? null },
  { name: 'peak_rps', kind: 'double', value: (r) => r.peakRps },
];

/** Header names of results.csv and results.parquet. */
export const SERVER_COLUMNS: readonly string[] = COLUMNS.map((c) => c.name);

/** One row of samples.parquet: a measured request. */
interface RequestRow {
  readonly cell: LoadCell;
  readonly probe: LoadProbe;
  readonly i: number;
}

type RequestColumn = CellColumn<RequestRow, LoadRunRecord>;

const col = (name: string, kind: ColumnKind, pick: (r: RequestRow) => number | string | null | undefined): RequestColumn => ({ name, kind, value: (r) => pick(r) });

/** Columns of samples.parquet: every request's times, so any figure can be recomputed. */
const REQUEST_COLUMNS: readonly RequestColumn[] = [
  col('model', 'string', (r) => r.cell.model),
  col('engine', 'string', (r) => r.cell.engine),
  col('round', 'int', (r) => r.probe.round + 1),
  col('target_rps', 'double', (r) => r.probe.targetRps),
  col('request', 'int', (r) => r.i),
  col('scheduled_ms', 'double', (r) => r.probe.samples.scheduledMs[r.i]),
  col('latency_ms', 'double', (r) => r.probe.samples.latencyMs[r.i]),
  col('completed', 'int', (r) => r.probe.samples.completed[r.i]),
  col('queue_ms', 'double', (r) => r.probe.samples.queueMs[r.i]),
  col('prepare_ms', 'double', (r) => r.probe.samples.prepareMs[r.i]),
  col('engine_ms', 'double', (r) => r.probe.samples.engineMs[r.i]),
  col('post_ms', 'double', (r) => r.probe.samples.postMs[r.i]),
  col('batch_size', 'int', (r) => r.probe.samples.batchSize[r.i]),
  col('batch_id', 'int', (r) => r.probe.samples.batchId[r.i]),
  col('enqueue_late_ms', 'double', (r) => r.probe.samples.enqueueLateMs[r.i]),
];

function requestRows(run: LoadRunRecord): RequestRow[] {
  return loadProbeRows(run).flatMap((row) => (row.probe ? row.probe.samples.scheduledMs.map((_t, i) => ({ cell: row.cell, probe: row.probe as LoadProbe, i })) : []));
}

/** The charts of a load run folder: the hockey stick (or why it is not drawn) and, once a probe ran, the latency CDF. */
export function loadCharts(run: LoadRunRecord): RunChart[] {
  const insufficient = hockeyStickView(run).insufficient;
  const hockey: RunChart = insufficient === null ? { file: SERVER_FILES.hockeyPng, spec: hockeyStickChartSpec(run) } : { file: SERVER_FILES.hockeyPng, skipped: insufficient };
  const probed = run.cells.some((c) => c.state !== 'skipped' && (c.probes?.length ?? 0) > 0);
  return probed ? [hockey, { file: SERVER_FILES.cdfPng, spec: latencyCdfChartSpec(run) }] : [hockey];
}

/**
 * Writes the run's files, data first and charts last, each atomically.
 * A chart whose view has too little to draw is left out (the report says
 * why); one that fails to render is a warning and never costs the data.
 */
export async function writeLoadFiles(run: LoadRunRecord, dir: string, options: { png: boolean; fs?: WriteFs }): Promise<{ paths: string[]; warnings: string[] }> {
  const charts = options.png ? loadCharts(run) : [];
  return writeCellFiles(
    dir,
    {
      run,
      columns: COLUMNS,
      cells: loadProbeRows(run),
      charts,
      extra: [[SERVER_FILES.samplesParquet, () => renderCellsParquet(REQUEST_COLUMNS, requestRows(run), run)]],
    },
    options.fs,
  );
}
