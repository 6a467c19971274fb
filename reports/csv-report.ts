/**
 * One CSV row per cell, for spreadsheets and pandas. Numbers are written at
 * full precision in fixed units (ms, bytes, items/s) so nothing is lost to
 * display rounding; the terminal report is where numbers get humanised.
 */
import type { CellResult, CompletedCell, RunRecord } from '../src/core/results.js';
import { BROWSER_COLUMNS } from './browser-columns.js';
import { isUnmeasurable, type EnergyFigure, type Measured } from '../src/core/energy.js';
import { cpuFallbackField, placementNodesField } from './placement-text.js';
import { displayState, formatVersions, orderedCells, sessionOf } from './run-summary.js';
import { speedupOverFp32 } from './variant-summary.js';
import { OPTION_COLUMNS } from './option-columns.js';
import { type BaselineRow, baselineRows, parityOk } from './run-views.js';

/** One value of a result row: what CSV, Parquet and Arrow all write. */
export type ResultField = string | number | null | undefined;
type Field = ResultField;

interface CsvColumn {
  readonly name: string;
  readonly value: (cell: CellResult, run: RunRecord, row: BaselineRow) => Field;
}

/** A measurement field: empty unless the cell completed. */
function measured(name: string, f: (c: CompletedCell) => number): CsvColumn {
  return { name, value: (cell) => (cell.state === 'completed' ? f(cell) : null) };
}

/** A field of an optional record part (verdict, memory, parity…): empty when the cell or the record lacks it. */
function optional(name: string, f: (c: CompletedCell) => Field): CsvColumn {
  return { name, value: (cell) => (cell.state === 'completed' ? f(cell) : null) };
}

/** A figure of the cell's view row (views.ts derives every per-pass, scope and estimator figure): empty unless the cell completed. */
function viewed(name: string, f: (r: BaselineRow) => Field): CsvColumn {
  return { name, value: (cell, _run, row) => (cell.state === 'completed' ? f(row) : null) };
}

/** The figure, or empty when the record lacks it or the hardware could not give it. */
function measuredValue<T extends object>(m: Measured<T> | undefined, f: (v: T) => number): Field {
  return m === undefined || isUnmeasurable(m) ? null : f(m);
}

/** `unmeasurable: <why>`, or what the measured figure covers. */
function hardwareNote<T extends object>(m: Measured<T> | undefined, f: (v: T) => string): Field {
  if (m === undefined) return null;
  return isUnmeasurable(m) ? `unmeasurable: ${m.unmeasurable}` : f(m);
}

/** Window, joules and rows, source and scope of an energy figure. */
export function energyNote(e: EnergyFigure): string {
  return `${e.joules.toFixed(3)} J over ${e.samples} rows in the timed loops (${Math.round(e.windowMs)} ms); ${e.source}; ${e.scope}`;
}

/**
 * Columns in output order. Session fields (backend, threads, precision,
 * versions) are filled whenever the engine reported a session, errored cells
 * included, because a failure on a silently different backend is worth seeing.
 */
const COLUMNS: readonly CsvColumn[] = [
  { name: 'run_id', value: (_c, run) => run.id },
  { name: 'model', value: (c) => c.model },
  { name: 'engine', value: (c) => c.engine },
  { name: 'backend', value: (c) => sessionOf(c)?.backend },
  // What ran the model on that backend (tfjs: inferbench's translator, tfjs-converter's GraphModel executor, a TensorFlow session).
  { name: 'executor', value: (c) => sessionOf(c)?.executor },
  { name: 'threads', value: (c) => sessionOf(c)?.threads },
  { name: 'requested_threads', value: (c) => c.requestedThreads },
  { name: 'precision', value: (c) => sessionOf(c)?.precision },
  { name: 'versions', value: (c) => formatVersions(sessionOf(c)?.versions ?? {}, ';') },
  // Where ORT placed the nodes (onnxruntime-node rows): a GPU row with CPU nodes is not a pure GPU measurement.
  { name: 'ep_nodes', value: (c) => placementNodesField(sessionOf(c)?.placement) },
  { name: 'ep_cpu_fallback_ops', value: (c) => cpuFallbackField(sessionOf(c)?.placement) },
  { name: 'batch_size', value: (c) => c.batchSize },
  optional('sequence_length', (c) => c.sequenceLength),
  // `interrupted`: Ctrl-C cut a completed cell short; its figures are kept, never VALID.
  { name: 'state', value: (c) => displayState(c) },
  { name: 'reason', value: (c) => (c.state === 'completed' ? null : c.reason) },
  optional('verdict', (c) => c.verdict?.status),
  optional('verdict_reasons', (c) => c.verdict?.reasons.join('; ')),
  optional('verdict_warnings', (c) => c.verdict?.warnings?.join('; ')),
  // 'false' here marks outputs that differ from the reference beyond tolerance: wrong answers, however fast.
  optional('parity_ok', (c) => {
    const ok = parityOk(c);
    return ok === null ? null : String(ok);
  }),
  measured('warmup_batches', (c) => c.warmupBatches),
  measured('measured_batches', (c) => c.latency.count),
  measured('items', (c) => c.itemsTotal),
  // Engine time of one pass over the rows (mean_ms × pass_batches); empty for a cell that saw no whole pass. total_ms ÷ mean_ms = pass_batches.
  viewed('total_ms', (r) => r.engineTime?.passMs),
  // Engine time per batch: the mean of round means, the figure ci95_* is centred on (a pipeline engine's own forward).
  viewed('mean_ms', (r) => r.meanMs),
  // min, max, stdev, cv and the percentiles pool every batch of every round.
  viewed('min_ms', (r) => r.latency?.min),
  viewed('max_ms', (r) => r.latency?.max),
  viewed('stdev_ms', (r) => r.latency?.stdev),
  viewed('cv', (r) => r.latency?.cv),
  optional('rounds', (c) => c.rounds?.length),
  // Across round means (Student t, rounds − 1 df) when the record has rounds; across batches in older records.
  viewed('ci95_low_ms', (r) => r.interval?.low),
  viewed('ci95_high_ms', (r) => r.interval?.high),
  viewed('ci95_across', (r) => r.interval?.across),
  viewed('p50_ms', (r) => r.latency?.p50),
  viewed('p90_ms', (r) => r.latency?.p90),
  viewed('p95_ms', (r) => r.latency?.p95),
  viewed('p99_ms', (r) => r.latency?.p99),
  // Rows of one pass per second of total_ms; empty without a whole pass.
  viewed('samples_per_s', (r) => r.samplesPerSecond),
  viewed('prepare_mean_ms', (r) => r.prepare?.meanMs),
  // The session create alone when the engine reported its open phases (import_ms and placement_probe_ms apart), else the whole open.
  viewed('open_ms', (r) => r.openMs),
  optional('first_batch_ms', (c) => c.coldStart?.firstBatchMs),
  optional('first_pass_ms', (c) => c.firstPass?.ms),
  viewed('warmup_mean_ms', (r) => r.warmupMeanMs),
  measured('peak_rss_bytes', (c) => c.memory?.peakRssBytes ?? c.peakRssBytes),
  { name: 'forward_mean_ms', value: (c) => (c.state === 'completed' ? c.forward?.mean : null) },
  { name: 'speedup_vs_fp32', value: (c, run) => speedupOverFp32(run)(c) },
  optional('baseline_rss_bytes', (c) => c.memory?.baselineRssBytes),
  optional('rss_growth_bytes', (c) => c.memory?.growthBytes),
  // Empty when the peak is the kernel's high-water mark: nothing was sampled.
  optional('rss_sample_hz', (c) => (c.memory?.peakSource === 'kernel' ? undefined : c.memory?.sampleHz)),
  optional('engine_tensors', (c) => c.memory?.engine?.numTensors),
  optional('engine_bytes', (c) => c.memory?.engine?.numBytes),
  optional('gpu_bytes', (c) => c.memory?.gpuBytes),
  // Hardware figures over the timed loop: the number, or empty with the note saying `unmeasurable: <why>`; the note of a
  // measured figure names its window, source and scope (board power and RAPL include idle power and other processes).
  optional('gpu_peak_bytes', (c) => measuredValue(c.memory?.gpu, (g) => g.peakBytes)),
  optional('gpu_peak_note', (c) => hardwareNote(c.memory?.gpu, (g) => `peak over ${g.readings} readings in the timed loop (${Math.round(g.windowMs)} ms); ${g.source}`)),
  optional('gpu_j_per_sample', (c) => measuredValue(c.energy?.gpu, (e) => e.joulesPerSample)),
  optional('gpu_energy_note', (c) => hardwareNote(c.energy?.gpu, energyNote)),
  optional('cpu_j_per_sample', (c) => measuredValue(c.energy?.cpu, (e) => e.joulesPerSample)),
  optional('cpu_energy_note', (c) => hardwareNote(c.energy?.cpu, energyNote)),
  optional('parity_reference', (c) => c.parity?.reference),
  optional('max_abs_diff', (c) => c.parity?.maxAbsDiff),
  optional('argmax_agreement', (c) => c.parity?.argmaxAgreement),
  optional('parity_tolerance', (c) => c.parity?.tolerance),
  optional('parity_unavailable', (c) => c.parityUnavailable),
  optional('accuracy', (c) => c.accuracy),
  // Browser rows only (read back in the page): what ran, the cold start in its parts, the page's heap after open.
  { name: 'browser', value: (c) => sessionOf(c)?.browser?.browser },
  { name: 'cross_origin_isolated', value: (c) => browserFlag(sessionOf(c)?.browser?.crossOriginIsolated) },
  { name: 'webgl_renderer', value: (c) => sessionOf(c)?.browser?.webglRenderer },
  // Browser rows: the page's adapter; Node WebGPU rows: the label (`software adapter (SwiftShader)` on a CPU driver).
  { name: 'webgpu_adapter', value: (c) => sessionOf(c)?.browser?.webgpuAdapter ?? sessionOf(c)?.adapter?.label },
  { name: 'page_load_ms', value: (c) => sessionOf(c)?.browser?.coldStart.pageLoadMs },
  { name: 'runtime_init_ms', value: (c) => sessionOf(c)?.browser?.coldStart.runtimeInitMs },
  { name: 'session_build_ms', value: (c) => sessionOf(c)?.browser?.coldStart.sessionBuildMs },
  { name: 'page_heap_bytes', value: (c) => sessionOf(c)?.browser?.memory.afterOpen?.bytes },
  { name: 'page_heap_source', value: (c) => sessionOf(c)?.browser?.memory.afterOpen?.source },
  // The unit of work and the two scopes: what engine time and end to end cover on this row, and their per-pass figures from the round means.
  // total_ms's 95% interval across rounds (ci95_* × pass_batches).
  viewed('total_ci95_low_ms', (r) => r.engineTime?.passCi95?.low),
  viewed('total_ci95_high_ms', (r) => r.engineTime?.passCi95?.high),
  viewed('pass_rows', (r) => r.pass?.rows),
  viewed('pass_batches', (r) => r.pass?.batches),
  viewed('partial_pass', (r) => r.partial),
  viewed('engine_scope', (r) => r.engineTime?.covers),
  viewed('e2e_scope', (r) => r.endToEnd?.covers),
  viewed('e2e_total_ms', (r) => r.endToEnd?.passMs),
  viewed('e2e_mean_ms', (r) => r.endToEnd?.meanMs),
  viewed('e2e_ci95_low_ms', (r) => r.endToEnd?.ci95?.low),
  viewed('e2e_ci95_high_ms', (r) => r.endToEnd?.ci95?.high),
  viewed('e2e_samples_per_s', (r) => r.endToEnd?.samplesPerSecond),
  viewed('prepare_total_ms', (r) => r.prepare?.passMs),
  // Accuracy's rows: every labelled row of one whole pass; when the engine saw fewer, accuracy is empty and accuracy_seen_rows says how many.
  viewed('accuracy_rows', (r) => r.accuracyRows?.counted),
  viewed('accuracy_seen_rows', (r) => r.accuracyRows?.seen),
  viewed('accuracy_pass_rows', (r) => r.accuracyRows?.of),
  viewed('parity_rows', (r) => r.parity?.rows),
  viewed('rows_count', (r) => r.rowSet?.rows),
  viewed('rows_sha256', (r) => r.rowSet?.sha256),
  // Cold start per open: true on the batch size measured first after its open; the other batch sizes found the engine warm.
  viewed('cold_after_open', (r) => (r.coldAfterOpen === null ? null : String(r.coldAfterOpen))),
  viewed('import_ms', (r) => r.importMs),
  viewed('placement_probe_ms', (r) => r.placementProbeMs),
  viewed('memory_isolation', (r) => r.memoryProcess),
  viewed('memory_ran_before', (r) => (r.ranBefore === null ? null : r.ranBefore.join(';'))),
  // Whose RSS the memory columns are when the engine ran outside this process (a browser cell's renderer); empty: this process.
  optional('rss_process', (c) => c.memory?.process?.label),
  // Filled in distributed runs only (`run --queue`), empty otherwise: the worker that measured the cell, its machine fingerprint and how often its job was retried.
  // Last, like the browser columns, so readers of earlier files find every older column where it was.
  { name: 'host', value: (c) => c.host?.name },
  { name: 'host_id', value: (c) => c.host?.id },
  { name: 'host_retries', value: (c) => (c.host ? (c.host.retries ?? 0) : null) },
  // Feature-extraction rows only: embedding parity as cosine with the reference (min and mean over parity_rows), and STS quality on pairs data.
  optional('min_cosine', (c) => c.parity?.cosine?.min),
  optional('mean_cosine', (c) => c.parity?.cosine?.mean),
  optional('sts_spearman', (c) => c.sts?.spearman),
  optional('sts_pairs', (c) => c.sts?.pairs),
  optional('sts_na', (c) => c.sts?.why),
  // Browser rows (run --browsers): the browser as --browsers names it and its version, read back in the page; the page's clock step
  // and whether short calls were timed in groups; SharedArrayBuffer; hardwareConcurrency as the browser says it beside the machine's cores.
  ...BROWSER_COLUMNS.map(([name, value]) => ({ name, value: (c: CellResult) => value(sessionOf(c)?.browser) })),
  // --engine-options: the row's options, their read-back and any the engine ignored (option-columns.ts).
  ...OPTION_COLUMNS,
];

/** "true" / "false" as the parity column writes booleans; empty outside browser rows. */
function browserFlag(value: boolean | undefined): string | undefined {
  return value === undefined ? undefined : String(value);
}

/** Header names of `renderCsv`, exported so readers and tests need not repeat them. */
export const CSV_COLUMNS: readonly string[] = COLUMNS.map((c) => c.name);

/** Quotes a field per RFC 4180 only when it holds a comma, quote or line break. */
export function csvField(value: Field): string {
  if (value === null || value === undefined) return '';
  const text = typeof value === 'number' ? (Number.isFinite(value) ? String(value) : '') : value;
  return /[",\r\n]/u.test(text) ? `"${text.replace(/"/gu, '""')}"` : text;
}

/**
 * One row of values per cell, in `CSV_COLUMNS` order and report order: the
 * single shaping of result rows that CSV, Parquet and Arrow all write, so the
 * three files never disagree on a column or a value.
 */
export function resultRows(run: RunRecord): ResultField[][] {
  const rows = baselineRows(run);
  return orderedCells(run).map((cell, i) => COLUMNS.map((c) => c.value(cell, run, rows[i] as BaselineRow)));
}

/**
 * Renders the run as RFC 4180 CSV (CRLF line ends, header row), one row per
 * cell in the same order as the terminal report.
 */
export function renderCsv(run: RunRecord): string {
  const lines = [COLUMNS.map((c) => csvField(c.name)).join(',')];
  for (const row of resultRows(run)) lines.push(row.map(csvField).join(','));
  return `${lines.join('\r\n')}\r\n`;
}
