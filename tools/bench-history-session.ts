/**
 * `npm run bench:history-session`: the CPU one history session costs. A run
 * takes the store's lock once per cell and three times more (src/runs/
 * history/store-access.ts), and `list`, `show` and `compare` each take it,
 * so a session's cost is paid hundreds of times in `npm test`.
 *
 * Two arms, each a session that inserts one row in one transaction and then
 * gives the lock up, taking turns (A B A B …) so the machine's drift hits
 * both alike:
 * - A, `withStore`: the store attached to this process's in-memory DuckDB,
 *   then detached (what inferbench does);
 * - B, a DuckDB instance opened on the file and closed again per session
 *   (what inferbench did before 2026-11-28).
 * Figure: CPU milliseconds per session (user + system of this process, all
 * its threads, from process.cpuUsage), the median over BENCH_ROUNDS rounds
 * (default 7) of BENCH_SESSIONS sessions each (default 20), with min and
 * max. A's window includes the lapse in which its session detaches, so the
 * detach's CPU counts; the wait itself costs none.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { withStore } from '../src/runs/history/store-access.js';
import { median } from './bench-passes.js';

const ROUNDS = Number(process.env['BENCH_ROUNDS'] ?? 7);
const SESSIONS = Number(process.env['BENCH_SESSIONS'] ?? 20);
/** Longer than the store's linger (100 ms), so each A session detaches before the next attaches. */
const LAPSE_MS = 150;

const duckdb = createRequire(import.meta.url)('@duckdb/node-api') as typeof import('@duckdb/node-api');

function cpuMs(): number {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** A: one session through inferbench's own store access, with the lapse in which it detaches (read by the caller). */
async function attachedSession(file: string, k: number): Promise<void> {
  await withStore(file, async (db) => {
    await db.run(`INSERT INTO t VALUES (${k})`);
  });
  await sleep(LAPSE_MS);
}

/** B: one session on an instance of its own. */
async function instanceSession(file: string, k: number): Promise<number> {
  const before = cpuMs();
  const instance = await duckdb.DuckDBInstance.create(file);
  const db = await instance.connect();
  await db.run('BEGIN TRANSACTION');
  await db.run(`INSERT INTO t VALUES (${k})`);
  await db.run('COMMIT');
  db.closeSync();
  instance.closeSync();
  return cpuMs() - before;
}

function spread(values: readonly number[]): string {
  return `${median(values).toFixed(1)} (${Math.min(...values).toFixed(1)}–${Math.max(...values).toFixed(1)})`;
}

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'inferbench-history-session-'));
  try {
    const files = { a: join(dir, 'a.duckdb'), b: join(dir, 'b.duckdb') };
    for (const file of Object.values(files)) {
      const instance = await duckdb.DuckDBInstance.create(file);
      const db = await instance.connect();
      await db.run('CREATE TABLE t (k INTEGER)');
      db.closeSync();
      instance.closeSync();
    }
    // One untimed session of each: the first attach makes the in-memory instance.
    await attachedSession(files.a, -1);
    await instanceSession(files.b, -1);
    const perSession = { a: [] as number[], b: [] as number[] };
    for (let round = 0; round < ROUNDS; round++) {
      let a = 0;
      let b = 0;
      for (let k = 0; k < SESSIONS; k++) {
        // The detach runs in the lapse after the transaction: its CPU is counted.
        const before = cpuMs();
        await attachedSession(files.a, k);
        a += cpuMs() - before;
        b += await instanceSession(files.b, k);
      }
      perSession.a.push(a / SESSIONS);
      perSession.b.push(b / SESSIONS);
    }
    process.stdout.write(
      `bench:history-session — CPU ms per session (one insert, one transaction, lock given up), median (min–max) of ${ROUNDS} rounds × ${SESSIONS} sessions, arms in turn\n` +
        `  A attach to the process's in-memory DuckDB (withStore)   ${spread(perSession.a)}\n` +
        `  B open and close an instance on the file                ${spread(perSession.b)}\n` +
        `  A/B ${(median(perSession.a) / median(perSession.b)).toFixed(2)}\n`,
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
