import type { DuckDBConnection } from '@duckdb/node-api';
import { hostname } from 'node:os';
import { readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { RUN_FILES, writeRunFiles } from '../../../reports/write-run.js';
import { UserError } from '../../core/errors.js';
import { cellInCurrentWords, withCurrentWords } from '../../core/record-kind.js';
import type { CellResult, RunRecord, RunRecordOf } from '../../core/results.js';
import type { HistoryDetail, HistoryEntry, HistorySource, HistoryState, StoredConfig } from './history-entry.js';
import { ownerColumns, ownerIsDead } from './owner.js';
import { cellColumns, ENTRY_SELECT, ensureSchema, entryFromRow, type HistoryCell } from './store-schema.js';
import { cellHeadline, storedCommand } from '../../scenarios/cell-headline.js';
import { DEFAULT_LOCK_TIMEOUT_MS, withStore } from './store-access.js';

/** File name of the store inside the output folder. */
export const HISTORY_FILE = 'history.duckdb';

/** Why an entry whose process vanished is marked interrupted. */
export const DEAD_OWNER_REASON = 'the process running it stopped before it finished (killed or crashed)';

/** Links and origin of a new entry. */
export interface NewEntry {
  readonly config: StoredConfig;
  readonly source: HistorySource;
  readonly state: 'queued' | 'running';
  readonly rerunOf?: number | null;
  readonly compareWith?: number | null;
}

const INSERT_CELL = `INSERT OR REPLACE INTO cells (run, idx, engine, batch_size, requested_threads, state, reason, mean_ms, p95_ms, samples_per_second, cell)
  VALUES ($run, $idx, $engine, $batch_size, $requested_threads, $state, $reason, $mean_ms, $p95_ms, $samples_per_second, $cell)`;

/** Rewrites a dead run's results.json (still saying `running`) as interrupted; best effort, the store is the record. */
async function markFileInterrupted(dir: string): Promise<void> {
  try {
    const record = withCurrentWords(JSON.parse(await readFile(join(dir, RUN_FILES.json), 'utf8')) as RunRecord);
    if (record.state !== 'running') return;
    await writeRunFiles({ ...record, state: 'interrupted', finishedAt: new Date().toISOString() }, dir, { png: false });
  } catch {
    // A missing or unreadable file has nothing to correct.
  }
}

/**
 * The benchmark history of one output folder, in `<out>/history.duckdb`.
 * Every method is one transaction that holds the file lock only while it
 * runs, so a CLI run, a dashboard and `inferbench list` can share the store.
 * The first call of each instance also marks runs whose process died as
 * interrupted (their measured cells stay).
 */
export class HistoryStore {
  readonly file: string;
  private ready: Promise<number[]> | null = null;

  constructor(
    readonly out: string,
    private readonly lockTimeoutMs = DEFAULT_LOCK_TIMEOUT_MS,
  ) {
    this.file = join(resolve(out), HISTORY_FILE);
  }

  /** Creates the schema and recovers dead runs; returns the ids marked interrupted. */
  open(): Promise<number[]> {
    this.ready ??= this.tx(async (db) => {
      await ensureSchema(db, this.file);
      return this.recoverDead(db);
    }).then(async (dead) => {
      for (const { dir } of dead) if (dir !== null) await markFileInterrupted(dir);
      return dead.map((d) => d.id);
    });
    return this.ready;
  }

  private tx<T>(work: (db: DuckDBConnection) => Promise<T>): Promise<T> {
    return withStore(this.file, work, this.lockTimeoutMs);
  }

  private async use<T>(work: (db: DuckDBConnection) => Promise<T>): Promise<T> {
    await this.open();
    return this.tx(work);
  }

  /** Queued or running entries of this host whose owner process is gone become interrupted. */
  private async recoverDead(db: DuckDBConnection): Promise<{ id: number; dir: string | null }[]> {
    const rows = (
      await db.runAndReadAll(`SELECT id, dir, owner_pid, owner_token, owner_start FROM runs WHERE state IN ('queued', 'running') AND owner_host = $host`, { host: hostname() })
    ).getRowObjectsJS();
    const text = (v: unknown): string | null => (typeof v === 'string' ? v : null);
    const dead = rows.filter((r) => ownerIsDead({ pid: Number(r['owner_pid']), token: text(r['owner_token']), start: text(r['owner_start']) }));
    for (const row of dead) {
      const id = Number(row['id']);
      await db.run(`UPDATE runs SET state = 'interrupted', finished_at = $now, error = $why WHERE id = $id`, { now: new Date().toISOString(), why: DEAD_OWNER_REASON, id });
      await this.recoverCellsFromFile(db, id);
    }
    return dead.map((r) => ({ id: Number(r['id']), dir: typeof r['dir'] === 'string' ? r['dir'] : null }));
  }

  /**
   * A run saves results.json before it records the cell here, so a kill
   * between the two leaves the file one cell ahead: copy what the store lacks.
   */
  private async recoverCellsFromFile(db: DuckDBConnection, id: number): Promise<void> {
    const rows = (await db.runAndReadAll('SELECT dir, config, (SELECT count(*) FROM cells WHERE run = $id)::INTEGER AS n FROM runs WHERE id = $id', { id })).getRowObjectsJS();
    const dir = rows[0]?.['dir'];
    if (typeof dir !== 'string') return;
    let cells: readonly HistoryCell[];
    let command: string;
    try {
      cells = (JSON.parse(await readFile(join(dir, RUN_FILES.json), 'utf8')) as RunRecordOf<HistoryCell>).cells.map(cellInCurrentWords);
      // The headline is the scenario's that the entry's config names, as when the cell was measured.
      command = storedCommand(JSON.parse(String(rows[0]?.['config'] ?? '{}')) as object);
    } catch {
      return; // no readable file: the store's cells are all there is
    }
    for (let idx = Number(rows[0]?.['n']); idx < cells.length; idx++) {
      const cell = cells[idx] as HistoryCell;
      await db.run(INSERT_CELL, { run: id, idx, ...cellColumns(cell, cellHeadline(command, cell)) });
    }
  }

  /** Adds an entry owned by this process and returns its id. */
  create(entry: NewEntry): Promise<number> {
    return this.use(async (db) => {
      const rows = (await db.runAndReadAll('SELECT nextval(\'history_id_seq\')::INTEGER AS id')).getRowObjectsJS();
      const id = Number(rows[0]?.['id']);
      await db.run(
        `INSERT INTO runs (id, state, source, created_at, config, rerun_of, compare_with, owner_pid, owner_host, owner_token, owner_start)
         VALUES ($id, $state, $source, $created, $config, $rerunOf, $compareWith, $pid, $host, $token, $start)`,
        {
          id,
          state: entry.state,
          source: entry.source,
          created: new Date().toISOString(),
          config: JSON.stringify(entry.config),
          rerunOf: entry.rerunOf ?? null,
          compareWith: entry.compareWith ?? null,
          ...ownerColumns(),
        },
      );
      return id;
    });
  }

  /** Records what a run knows once its folder exists: run id, folder, environment, models. */
  started(id: number, record: RunRecordOf<unknown>, dir: string): Promise<void> {
    return this.use(async (db) => {
      await db.run(
        `UPDATE runs SET state = 'running', run_id = $runId, dir = $dir, started_at = $startedAt, recorded_config = $config,
         environment = $env, models = $models, owner_pid = $pid, owner_host = $host, owner_token = $token, owner_start = $start WHERE id = $id`,
        {
          id,
          runId: record.id,
          dir,
          startedAt: record.startedAt,
          config: JSON.stringify(record.config),
          env: JSON.stringify(record.environment),
          models: JSON.stringify(record.models),
          ...ownerColumns(),
        },
      );
    });
  }

  /**
   * Stores one measured cell (index `index` of the sweep) of a `command`
   * run, its headline columns as that scenario says (cell-headline.ts);
   * `total` is the sweep size when known.
   */
  addCell(id: number, index: number, cell: HistoryCell, total: number | null, command: string): Promise<void> {
    return this.use(async (db) => {
      await db.run(INSERT_CELL, { run: id, idx: index, ...cellColumns(cell, cellHeadline(command, cell)) });
      if (total !== null) await db.run('UPDATE runs SET cells_total = $total WHERE id = $id', { id, total });
    });
  }

  /** Records the sweep size, so a list can show progress before the first cell ends. */
  setTotal(id: number, total: number): Promise<void> {
    return this.use(async (db) => {
      await db.run('UPDATE runs SET cells_total = $total WHERE id = $id', { id, total });
    });
  }

  /** Moves an entry to a final state; `error` says why it failed or stopped. */
  finish(id: number, state: Extract<HistoryState, 'completed' | 'failed' | 'interrupted'>, error: string | null = null, finishedAt = new Date().toISOString()): Promise<void> {
    return this.use(async (db) => {
      await db.run('UPDATE runs SET state = $state, finished_at = $finishedAt, error = $error WHERE id = $id', { id, state, finishedAt, error });
    });
  }

  /** Every entry, newest first. */
  list(): Promise<HistoryEntry[]> {
    return this.use(async (db) => (await db.runAndReadAll(`${ENTRY_SELECT} ORDER BY r.id DESC`)).getRowObjectsJS().map(entryFromRow));
  }

  /** One entry with its cells in sweep order; null when unknown. */
  get(id: number): Promise<HistoryDetail | null> {
    return this.use(async (db) => {
      const rows = (await db.runAndReadAll(`${ENTRY_SELECT} WHERE r.id = $id`, { id })).getRowObjectsJS();
      const row = rows[0];
      if (!row) return null;
      const cells = (await db.runAndReadAll('SELECT cell FROM cells WHERE run = $id ORDER BY idx', { id })).getRowObjectsJS();
      return { ...entryFromRow(row), cells: cells.map((c) => cellInCurrentWords(JSON.parse(String(c['cell'])) as CellResult)) };
    });
  }

  /** The entry whose run folder id is `runId`, if any. */
  findByRunId(runId: string): Promise<number | null> {
    return this.use(async (db) => {
      const rows = (await db.runAndReadAll('SELECT id FROM runs WHERE run_id = $runId', { runId })).getRowObjectsJS();
      return rows[0] ? Number(rows[0]['id']) : null;
    });
  }

  /** Deletes an entry and its cells; returns what was deleted (null when unknown). Files are the caller's job. */
  remove(id: number): Promise<HistoryEntry | null> {
    return this.use(async (db) => {
      const rows = (await db.runAndReadAll(`${ENTRY_SELECT} WHERE r.id = $id`, { id })).getRowObjectsJS();
      const row = rows[0];
      if (!row) return null;
      await db.run('DELETE FROM cells WHERE run = $id', { id });
      await db.run('DELETE FROM runs WHERE id = $id', { id });
      return entryFromRow(row);
    });
  }

  /** Entry by id, or a UserError naming the id and how to find valid ones. */
  async require(id: number): Promise<HistoryDetail> {
    const entry = await this.get(id);
    if (!entry) throw new UserError(`no benchmark with id ${id} in ${this.file}`, 'run `inferbench list` to see the ids (pass the same --out as the run)');
    return entry;
  }
}
