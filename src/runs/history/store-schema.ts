import type { DuckDBConnection } from '@duckdb/node-api';
import type { CellHeadline } from '../../scenarios/cell-headline.js';
import type { HeadlineFigure, HistoryCell, HistoryEntry, HistorySource, HistoryState, StoredConfig } from './history-entry.js';

export type { HistoryCell } from './history-entry.js';

/** Bumped when a table changes shape; a newer store is refused rather than misread. */
export const STORE_SCHEMA_VERSION = 1;

/**
 * One row per benchmark and one per measured cell. Times are ISO strings
 * (what RunRecord holds); JSON documents are kept as text so any reader,
 * DuckDB's own `json` functions included, can open them. The cells table
 * repeats the headline statistics as columns so lists and SQL queries need
 * not parse the JSON.
 */
const DDL = [
  'CREATE SEQUENCE IF NOT EXISTS history_id_seq START 1',
  `CREATE TABLE IF NOT EXISTS meta (key VARCHAR PRIMARY KEY, value VARCHAR NOT NULL)`,
  `CREATE TABLE IF NOT EXISTS runs (
    id INTEGER PRIMARY KEY,
    run_id VARCHAR,
    dir VARCHAR,
    state VARCHAR NOT NULL,
    source VARCHAR NOT NULL,
    created_at VARCHAR NOT NULL,
    started_at VARCHAR,
    finished_at VARCHAR,
    config VARCHAR NOT NULL,
    recorded_config VARCHAR,
    environment VARCHAR,
    models VARCHAR,
    rerun_of INTEGER,
    compare_with INTEGER,
    error VARCHAR,
    cells_total INTEGER,
    owner_pid INTEGER NOT NULL,
    owner_host VARCHAR NOT NULL,
    owner_token VARCHAR,
    owner_start VARCHAR
  )`,
  `CREATE TABLE IF NOT EXISTS cells (
    run INTEGER NOT NULL,
    idx INTEGER NOT NULL,
    engine VARCHAR NOT NULL,
    batch_size INTEGER NOT NULL,
    requested_threads INTEGER,
    state VARCHAR NOT NULL,
    reason VARCHAR,
    mean_ms DOUBLE,
    p95_ms DOUBLE,
    samples_per_second DOUBLE,
    cell VARCHAR NOT NULL,
    PRIMARY KEY (run, idx)
  )`,
];

/** Creates the tables when missing and refuses a store written by a newer schema. */
export async function ensureSchema(db: DuckDBConnection, file: string): Promise<void> {
  for (const sql of DDL) await db.run(sql);
  const rows = (await db.runAndReadAll(`SELECT value FROM meta WHERE key = 'schema_version'`)).getRowObjectsJS();
  const found = rows[0]?.['value'];
  if (found === undefined) {
    await db.run(`INSERT INTO meta VALUES ('schema_version', $v)`, { v: String(STORE_SCHEMA_VERSION) });
  } else if (Number(found) > STORE_SCHEMA_VERSION) {
    throw new Error(`history store ${file} has schema version ${String(found)}, newer than this inferbench (${STORE_SCHEMA_VERSION}); upgrade inferbench`);
  }
}

/** Columns a list reads: everything but the cells, plus the cell count and the best cell. */
export const ENTRY_SELECT = `
  SELECT r.*, coalesce(d.done, 0)::INTEGER AS cells_done,
         h.engine AS h_engine, h.batch_size AS h_batch, h.requested_threads AS h_threads, h.samples_per_second AS h_sps, h.cell AS h_cell
  FROM runs r
  LEFT JOIN (SELECT run, count(*) AS done FROM cells GROUP BY run) d ON d.run = r.id
  LEFT JOIN (
    SELECT run, engine, batch_size, requested_threads, samples_per_second, cell FROM cells
    WHERE state = 'completed' AND samples_per_second IS NOT NULL
    QUALIFY row_number() OVER (PARTITION BY run ORDER BY samples_per_second DESC, idx) = 1
  ) h ON h.run = r.id`;

type Row = Record<string, unknown>;

function str(row: Row, key: string): string | null {
  const v = row[key];
  return v === null || v === undefined ? null : String(v);
}

function num(row: Row, key: string): number | null {
  const v = row[key];
  return v === null || v === undefined ? null : Number(v);
}

function json<T>(row: Row, key: string, fallback: T): T {
  const text = str(row, key);
  return text === null ? fallback : (JSON.parse(text) as T);
}

/** Turns a row of ENTRY_SELECT into a HistoryEntry. */
export function entryFromRow(row: Row): HistoryEntry {
  const sps = num(row, 'h_sps');
  // The rest of the best cell's key (model row, sequence length, host) is in its JSON.
  const key = json<{ model?: string; sequenceLength?: number | null; host?: { name?: string } }>(row, 'h_cell', {});
  const headline: HeadlineFigure | null =
    sps === null
      ? null
      : {
          model: key.model ?? '',
          engine: str(row, 'h_engine') ?? '',
          batchSize: num(row, 'h_batch') ?? 0,
          requestedThreads: num(row, 'h_threads'),
          sequenceLength: typeof key.sequenceLength === 'number' ? key.sequenceLength : null,
          host: key.host?.name ?? null,
          samplesPerSecond: sps,
        };
  return {
    id: Number(row['id']),
    runId: str(row, 'run_id'),
    dir: str(row, 'dir'),
    state: String(row['state']) as HistoryState,
    source: String(row['source']) as HistorySource,
    createdAt: String(row['created_at']),
    startedAt: str(row, 'started_at'),
    finishedAt: str(row, 'finished_at'),
    config: json<StoredConfig>(row, 'config', {} as StoredConfig),
    recordedConfig: json<Record<string, unknown> | null>(row, 'recorded_config', null),
    environment: json(row, 'environment', null),
    models: json(row, 'models', []),
    rerunOf: num(row, 'rerun_of'),
    compareWith: num(row, 'compare_with'),
    error: str(row, 'error'),
    cellsDone: num(row, 'cells_done') ?? 0,
    cellsTotal: num(row, 'cells_total'),
    headline,
    ownerPid: num(row, 'owner_pid') ?? 0,
    ownerHost: str(row, 'owner_host') ?? '',
    ownerToken: str(row, 'owner_token'),
  };
}

/**
 * Column values of one cell row; the whole cell is kept as JSON beside
 * them. The headline columns hold what the scenario that measured the cell
 * says they hold (cell-headline.ts): for `run` the engine time per batch
 * and samples/s, for generate TTFT and decode tokens/s, for train the step
 * time and samples/s, for load the latency at its peak rate and that rate.
 */
export function cellColumns(cell: HistoryCell, headline: CellHeadline): Record<string, string | number | null> {
  return {
    engine: cell.engine,
    batch_size: cell.batchSize,
    requested_threads: cell.requestedThreads,
    state: cell.state,
    reason: cell.state === 'completed' || cell.reason === undefined ? null : cell.reason,
    mean_ms: headline.meanMs,
    p95_ms: headline.p95Ms,
    samples_per_second: headline.perSecond,
    cell: JSON.stringify(cell),
  };
}
