/**
 * The example scenario's files: results.json (the whole record) and
 * results.csv and results.parquet (one row per engine) from one column
 * list, written atomically by the writer every per-cell scenario shares
 * (reports/cell-files.ts). It draws no chart.
 */
import { writeCellFiles, type CellColumn } from '../../../reports/cell-files.js';
import type { StartupCell, StartupRecord } from './startup-results.js';

type Column = CellColumn<StartupCell, StartupRecord>;

const figure = (pick: (c: Extract<StartupCell, { state: 'completed' }>) => number): Column['value'] => (c) => (c.state === 'completed' ? pick(c) : null);

/** Columns of results.csv and results.parquet, in order. */
export const STARTUP_COLUMNS: readonly Column[] = [
  { name: 'run_id', kind: 'string', value: (_c, run) => run.id },
  { name: 'scenario', kind: 'string', value: () => 'startup' },
  { name: 'engine', kind: 'string', value: (c) => c.engine },
  { name: 'state', kind: 'string', value: (c) => c.state },
  { name: 'rounds', kind: 'int', value: (c) => c.samples.length },
  { name: 'cold', kind: 'string', value: (c) => (c.state === 'completed' ? String(c.cold) : null) },
  { name: 'probe_mean_ms', kind: 'double', value: figure((c) => c.meanMs) },
  { name: 'probe_p95_ms', kind: 'double', value: figure((c) => c.p95Ms) },
  { name: 'versions', kind: 'string', value: (c) => Object.entries(c.samples[0]?.versions ?? {}).map(([k, v]) => `${k} ${v}`).join('; ') || null },
  { name: 'reason', kind: 'string', value: (c) => (c.state === 'completed' ? null : c.reason) },
];

/** Writes the run's data files (no chart), each atomically. */
export function writeStartupFiles(run: StartupRecord, dir: string): Promise<{ paths: string[]; warnings: string[] }> {
  return writeCellFiles(dir, { run, columns: STARTUP_COLUMNS, cells: run.cells, charts: [] });
}
