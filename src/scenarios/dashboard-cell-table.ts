/**
 * The table under a dashboard chart of a scenario whose cells are not
 * classification's (generate's, train's): a row per cell, named by its
 * model (when the run has several), engine and keys, then its figures or
 * why it has none. Each scenario's views (its folder's
 * *-dashboard-views.ts) give the keys and figures; the panel draws it
 * (reports/dashboard-panels.ts).
 */
import type { SampleStatistics } from '../core/statistics.js';
import { left, right, type Cell, type Table } from '../../reports/dashboard-panels.js';

/** What the table reads of any scenario's cell to name it and say how it ended. */
export interface IdentityCell {
  readonly model: string;
  readonly engine: string;
  readonly requestedThreads: number | null;
  readonly batchSize: number;
  readonly state: string;
  readonly reason?: string;
  readonly session?: { readonly backend?: string | null; readonly threads?: number | null };
}

/** The figures of one statistic a table cell shows. */
export interface Figures {
  readonly mean: number;
  readonly p50: number;
  readonly p90: number;
  readonly p99: number;
}

export function figures(s: SampleStatistics | null): Figures | null {
  return s === null ? null : { mean: s.mean, p50: s.p50, p90: s.p90, p99: s.p99 };
}

/** What every row says about its cell: which one it is, what ran, and how it ended. */
export function identity(cell: IdentityCell) {
  const session = cell.state === 'skipped' ? undefined : cell.session;
  return {
    model: cell.model,
    engine: cell.engine,
    backend: session?.backend ?? null,
    requestedThreads: cell.requestedThreads,
    threads: session?.threads ?? null,
    batchSize: cell.batchSize,
    state: cell.state,
    reason: cell.state === 'completed' ? null : (cell.reason ?? null),
  };
}

export type Identity = ReturnType<typeof identity>;

/** The cores a cell ran on: the threads read back, else the setting asked for. */
export function cores(r: Identity): string {
  return String(r.threads ?? (r.requestedThreads === null ? 'default' : r.requestedThreads));
}

/**
 * A table whose first columns name the cell (the model when the run has
 * several, the engine, then `keys`), then its `figures`, or why it has none.
 */
export function cellTable<T extends Identity>(rows: readonly T[], keys: readonly [string, (r: T) => string][], figures: readonly [string, (r: T) => Cell, boolean?][]): Table {
  const models = new Set(rows.map((r) => r.model)).size > 1;
  return {
    columns: [...(models ? [left('model')] : []), left('engine'), ...keys.map(([h]) => right(h)), ...figures.map(([h, , wrap]) => ({ ...right(h), ...(wrap === true ? { wrap } : {}) }))],
    rows: rows.map((r) => {
      const named: Cell[] = [...(models ? [r.model] : []), r.engine, ...keys.map(([, f]) => f(r))];
      return r.state === 'completed' ? { cells: [...named, ...figures.map(([, f]) => f(r))] } : { cells: named, reason: `${r.state}: ${r.reason ?? ''}` };
    }),
  };
}
