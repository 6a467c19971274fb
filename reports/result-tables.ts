/**
 * The run's results as typed, column-oriented tables for the Parquet and
 * Arrow files: one row per cell (the CSV's rows and column names, shaped once
 * by `resultRows`) and one row per measured batch (the raw samples). Types
 * are fixed per column, not guessed from the values, so a column keeps its
 * type from one run to the next (an all-empty column stays a number column)
 * and files from many runs can be queried together.
 */
import type { RunRecord } from '../src/core/results.js';
import { CSV_COLUMNS, resultRows, type ResultField } from './csv-report.js';
import { orderedCells } from './run-summary.js';
import { lookupName } from '../src/core/name-lookup.js';

/** Column types written: UTF-8 text, 64-bit integers, or doubles. All columns are nullable. */
export type ColumnKind = 'string' | 'int' | 'float';

/** One typed column of a table. */
export interface TableColumn {
  readonly name: string;
  readonly kind: ColumnKind;
  readonly values: readonly (string | number | null)[];
}

/** Named columns of equal length. */
export interface ResultTable {
  readonly columns: readonly TableColumn[];
  readonly rowCount: number;
}

/**
 * Type of each result column. A CSV column missing here (added later) is
 * typed from its values, float when every value is a number or empty, so it
 * still gets written; the test checks that every current column is listed.
 */
export const RESULT_COLUMN_KINDS: Readonly<Record<string, ColumnKind>> = {
  run_id: 'string',
  model: 'string',
  engine: 'string',
  backend: 'string',
  executor: 'string',
  threads: 'int',
  requested_threads: 'int',
  precision: 'string',
  versions: 'string',
  ep_nodes: 'string',
  ep_cpu_fallback_ops: 'string',
  browser: 'string',
  cross_origin_isolated: 'string',
  webgl_renderer: 'string',
  webgpu_adapter: 'string',
  page_load_ms: 'float',
  runtime_init_ms: 'float',
  session_build_ms: 'float',
  page_heap_bytes: 'int',
  page_heap_source: 'string',
  browser_name: 'string',
  browser_version: 'string',
  timer_resolution_ms: 'float',
  timed_in_groups: 'string',
  shared_array_buffer: 'string',
  hardware_concurrency: 'int',
  machine_cores: 'int',
  webgpu_features: 'string',
  batch_size: 'int',
  host: 'string',
  host_id: 'string',
  host_retries: 'int',
  rss_process: 'string',
  sequence_length: 'int',
  state: 'string',
  reason: 'string',
  verdict: 'string',
  verdict_reasons: 'string',
  verdict_warnings: 'string',
  // "true" / "false" as in the CSV, so the two files never disagree.
  parity_ok: 'string',
  warmup_batches: 'int',
  measured_batches: 'int',
  items: 'int',
  total_ms: 'float',
  mean_ms: 'float',
  min_ms: 'float',
  max_ms: 'float',
  stdev_ms: 'float',
  cv: 'float',
  rounds: 'int',
  ci95_low_ms: 'float',
  ci95_high_ms: 'float',
  ci95_across: 'string',
  p50_ms: 'float',
  p90_ms: 'float',
  p95_ms: 'float',
  p99_ms: 'float',
  samples_per_s: 'float',
  prepare_mean_ms: 'float',
  open_ms: 'float',
  first_batch_ms: 'float',
  first_pass_ms: 'float',
  warmup_mean_ms: 'float',
  peak_rss_bytes: 'int',
  baseline_rss_bytes: 'int',
  rss_growth_bytes: 'int',
  rss_sample_hz: 'float',
  engine_tensors: 'int',
  engine_bytes: 'int',
  gpu_bytes: 'int',
  gpu_peak_bytes: 'int',
  gpu_peak_note: 'string',
  gpu_j_per_sample: 'float',
  gpu_energy_note: 'string',
  cpu_j_per_sample: 'float',
  cpu_energy_note: 'string',
  parity_reference: 'string',
  max_abs_diff: 'float',
  argmax_agreement: 'float',
  parity_tolerance: 'float',
  parity_unavailable: 'string',
  accuracy: 'float',
  forward_mean_ms: 'float',
  speedup_vs_fp32: 'float',
  total_ci95_low_ms: 'float',
  total_ci95_high_ms: 'float',
  pass_rows: 'int',
  pass_batches: 'int',
  partial_pass: 'string',
  engine_scope: 'string',
  e2e_scope: 'string',
  e2e_total_ms: 'float',
  e2e_mean_ms: 'float',
  e2e_ci95_low_ms: 'float',
  e2e_ci95_high_ms: 'float',
  e2e_samples_per_s: 'float',
  prepare_total_ms: 'float',
  accuracy_rows: 'int',
  accuracy_seen_rows: 'int',
  accuracy_pass_rows: 'int',
  parity_rows: 'int',
  rows_count: 'int',
  rows_sha256: 'string',
  cold_after_open: 'string',
  import_ms: 'float',
  placement_probe_ms: 'float',
  memory_isolation: 'string',
  memory_ran_before: 'string',
  min_cosine: 'float',
  mean_cosine: 'float',
  sts_spearman: 'float',
  sts_pairs: 'int',
  sts_na: 'string',
  engine_options: 'string',
  option_readback: 'string',
  options_ignored: 'string',
};

/** Columns of the samples table, in order. */
export const SAMPLE_COLUMNS: readonly { readonly name: string; readonly kind: ColumnKind }[] = [
  { name: 'run_id', kind: 'string' },
  { name: 'model', kind: 'string' },
  { name: 'engine', kind: 'string' },
  { name: 'batch_size', kind: 'int' },
  { name: 'requested_threads', kind: 'int' },
  { name: 'batch_index', kind: 'int' },
  { name: 'run_ms', kind: 'float' },
  { name: 'prepare_ms', kind: 'float' },
  { name: 'items', kind: 'int' },
  // The pipeline's own forward inside run_ms (transformers-js rows; empty elsewhere), and end to end (empty in older records).
  { name: 'forward_ms', kind: 'float' },
  { name: 'end_to_end_ms', kind: 'float' },
];

function clean(value: ResultField): string | number | null {
  if (value === undefined || value === null) return null;
  if (typeof value === 'number' && !Number.isFinite(value)) return null;
  return value;
}

function inferKind(values: readonly (string | number | null)[]): ColumnKind {
  return values.every((v) => v === null || typeof v === 'number') ? 'float' : 'string';
}

/** One row per cell, with the CSV's column names and values. */
export function resultsTable(run: RunRecord): ResultTable {
  const rows = resultRows(run);
  const columns = CSV_COLUMNS.map((name, i): TableColumn => {
    const values = rows.map((row) => clean(row[i]));
    return { name, kind: lookupName(RESULT_COLUMN_KINDS, name) ?? inferKind(values), values };
  });
  return { columns, rowCount: rows.length };
}

/** One row per measured batch of every completed cell, in report order: the raw samples behind the statistics. */
export function samplesTable(run: RunRecord): ResultTable {
  const values: (string | number | null)[][] = SAMPLE_COLUMNS.map(() => []);
  let rowCount = 0;
  for (const cell of orderedCells(run)) {
    if (cell.state !== 'completed') continue;
    cell.samples.runMs.forEach((runMs, index) => {
      const row = [
        run.id, cell.model, cell.engine, cell.batchSize, cell.requestedThreads, index, runMs, cell.samples.prepareMs[index] ?? null, cell.samples.items[index] ?? null,
        cell.samples.forwardMs?.[index] ?? null, cell.samples.endToEndMs?.[index] ?? null,
      ];
      row.forEach((v, c) => values[c]?.push(clean(v)));
      rowCount++;
    });
  }
  return { columns: SAMPLE_COLUMNS.map((c, i) => ({ ...c, values: values[i] ?? [] })), rowCount };
}
