import type { DuckDBConnection, DuckDBInstance } from '@duckdb/node-api';
import { existsSync } from 'node:fs';
import { link, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname } from 'node:path';
import { UserError } from '../../core/errors.js';
import { packageLeftOutOfPack } from '../../core/offline-pack.js';
import { vendorBundle } from '../../core/package-info.js';
import { prepareOutputFolder } from '../../core/output-folder.js';
import { temporaryPath, trackTemporary } from '../../core/temporaries.js';
import { corruptStoreError, isCorruptStore } from './corrupt-store.js';

/**
 * How long to keep retrying when another process holds the store's file
 * lock. Each holder keeps it for one short transaction, so a long wait
 * means something is stuck rather than busy.
 */
export const DEFAULT_LOCK_TIMEOUT_MS = 60_000;

const FIRST_BACKOFF_MS = 5;
const MAX_BACKOFF_MS = 100;

/** Tails of the promise chains that serialise access to each store file within this process. */
const inProcessTails = new Map<string, Promise<unknown>>();

/** DuckDB refuses to open a file another process holds with this message. */
export function isLockConflict(err: unknown): boolean {
  return err instanceof Error && /Could not set lock on file|Conflicting lock is held/i.test(err.message);
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/**
 * The DuckDB binding. An offline pack may leave it out (its native library
 * is larger than the rest of the pack); the history then says so in one line
 * and the run folder is written as usual.
 */
async function loadDuckDb(): Promise<typeof import('@duckdb/node-api')> {
  try {
    // require, not import(): the binding is CommonJS, and import() first scans its ~40 re-exported files for named
    // exports (cjs-module-lexer), which doubled its load (about 0.6 s of CPU to 0.25 s) at every command that opens the store.
    // The build's one-file bundle of it where there is one (tools/build.mjs VENDOR_BUNDLES: 0.19 s); the package where not
    // (a bare tsc build; an offline pack, whose app/ is bundled apart).
    return createRequire(import.meta.url)(vendorBundle('duckdb-node-api.cjs') ?? '@duckdb/node-api') as typeof import('@duckdb/node-api');
  } catch (err) {
    const omission = packageLeftOutOfPack('@duckdb/node-api');
    if (omission) throw new UserError(`${omission.part} is left out of this offline pack: ${omission.effect}`, 'the run folder is complete; build the pack with --with-history to record runs');
    throw err;
  }
}

/**
 * This process's DuckDB: one in-memory instance, made on first use, that
 * store files are attached to for a session and detached from after it.
 * Attaching takes the file's lock as opening it would, and detaching
 * checkpoints and releases it; what it saves is a new instance per session
 * (its catalog of built-in functions, its threads): 24 ms of CPU a session
 * instead of 40 on the 2-core machine (`npm run bench:history-session`).
 */
let memory: Promise<DuckDBInstance> | undefined;

/** Names each attached store uniquely within the process, as DuckDB requires of an alias. */
let attachments = 0;

/** `text` as a SQL string literal. */
function sqlString(text: string): string {
  return `'${text.replaceAll("'", "''")}'`;
}

/** The process's in-memory instance; a failed creation is not kept, so the next session tries again. */
async function memoryInstance(): Promise<DuckDBInstance> {
  if (!memory) {
    // Loaded on first use: the native library takes about a second to load, which commands without a store should not pay.
    const created = loadDuckDb().then(({ DuckDBInstance }) => DuckDBInstance.create(':memory:'));
    memory = created;
    created.catch(() => {
      if (memory === created) memory = undefined;
    });
  }
  return memory;
}

/**
 * Makes `file` an empty store where there is none, whole before it has its
 * name: built under a temporary name, then hard-linked into place (which
 * fails if another process got there first, whose store is then the one).
 * Two processes attaching a store that did not exist yet could otherwise
 * meet halfway: one creating the file, the other reading it before its
 * header was written, which DuckDB reports as "not a valid DuckDB database
 * file" (a fresh clone's `npm test`, history-store-concurrent, 2026-11-28).
 * Where the file system has no hard links, the store is made by the attach
 * itself, as before.
 */
async function createStoreWhole(file: string, db: DuckDBConnection): Promise<void> {
  if (existsSync(file)) return;
  const temp = temporaryPath(file, 'tmp');
  const tracked = trackTemporary(temp);
  const alias = `new_${++attachments}`;
  try {
    await db.run(`ATTACH ${sqlString(temp)} AS ${alias}`);
    await db.run(`DETACH ${alias}`);
    await link(temp, file).catch((err: NodeJS.ErrnoException) => {
      if (err.code !== 'EEXIST' && err.code !== 'EPERM' && err.code !== 'ENOTSUP' && err.code !== 'EXDEV') throw err;
    });
  } finally {
    await rm(temp, { force: true });
    await rm(`${temp}.wal`, { force: true });
    tracked.done();
  }
}

/** Attaches the store on a new connection, retrying with exponential backoff and jitter while another process holds the lock. */
async function attachWithRetry(file: string, timeoutMs: number): Promise<{ readonly db: DuckDBConnection; readonly alias: string }> {
  // Not `mkdir -p`: it loops forever on file systems that answer ENOENT (see output-folder.ts).
  await prepareOutputFolder(dirname(file));
  const db = await (await memoryInstance()).connect();
  await createStoreWhole(file, db).catch((err: unknown) => {
    db.closeSync();
    throw new UserError(`cannot create the history store ${file}: ${(err as Error).message.split('\n')[0]}`, 'check that the output folder is writable, or pass another --out');
  });
  const alias = `store_${++attachments}`;
  const deadline = Date.now() + timeoutMs;
  let backoff = FIRST_BACKOFF_MS;
  try {
    for (;;) {
      try {
        await db.run(`ATTACH ${sqlString(file)} AS ${alias}`);
        // The work's SQL names tables unqualified: they resolve in the attached store.
        await db.run(`USE ${alias}`);
        return { db, alias };
      } catch (err) {
        if (isCorruptStore(err)) throw await corruptStoreError(file, err);
        if (!isLockConflict(err)) {
          throw new UserError(`cannot open the history store ${file}: ${(err as Error).message.split('\n')[0]}`, 'check that the output folder is writable, or pass another --out');
        }
        if (Date.now() >= deadline) {
          throw new UserError(
            `the history store ${file} stayed locked by another process for ${Math.round(timeoutMs / 1000)} s`,
            'wait for the other inferbench process to finish, or stop it; the run files in the output folder are intact',
          );
        }
        await sleep(backoff * (0.5 + Math.random()));
        backoff = Math.min(backoff * 2, MAX_BACKOFF_MS);
      }
    }
  } catch (err) {
    db.closeSync();
    throw err;
  }
}

/**
 * A store attached and kept for a moment after a transaction, so
 * back-to-back transactions (a list then a get) share one attachment,
 * while the lock is still given up soon after the work stops.
 */
interface Session {
  readonly db: DuckDBConnection;
  readonly alias: string;
  readonly openedAt: number;
  timer: NodeJS.Timeout | null;
}

/** Idle time after which the store is detached and its lock released. */
const LINGER_MS = 100;
/** Longest time one process keeps the store attached while busy, so other processes get their turn. */
const MAX_HOLD_MS = 1_000;
/** Pause after giving the lock up for fairness, so a waiting process can take it. */
const YIELD_MS = 150;

const sessions = new Map<string, Session>();
/** Detachments under way, per file: the file is attached again only once its last one has ended. */
const detaching = new Map<string, Promise<void>>();

/** Detaches `alias` on a connection of its own; never throws. */
async function detachOnFreshConnection(alias: string): Promise<void> {
  try {
    const db = await (await memoryInstance()).connect();
    try {
      await db.run(`DETACH DATABASE IF EXISTS ${alias}`);
    } finally {
      db.closeSync();
    }
  } catch {
    // Nothing more to try: the attachment ends with the process.
  }
}

/** Detaches the file's session, if any (checkpointing the store and releasing its lock); never throws. */
function closeSession(file: string): Promise<void> {
  const session = sessions.get(file);
  if (!session) return detaching.get(file) ?? Promise.resolve();
  sessions.delete(file);
  if (session.timer) clearTimeout(session.timer);
  const done = (async () => {
    try {
      await session.db.run('USE memory');
      await session.db.run(`DETACH ${session.alias}`);
    } catch {
      // The session's connection is unusable (a failed rollback): detach on a fresh one, so the file's lock is not
      // held until this process ends. A store that cannot be detached cleanly keeps its WAL, which the next attach replays.
      await detachOnFreshConnection(session.alias);
    } finally {
      session.db.closeSync();
    }
  })();
  detaching.set(file, done);
  void done.finally(() => {
    if (detaching.get(file) === done) detaching.delete(file);
  });
  return done;
}

async function session(file: string, timeoutMs: number): Promise<Session> {
  const open = sessions.get(file);
  if (open && Date.now() - open.openedAt < MAX_HOLD_MS) {
    if (open.timer) clearTimeout(open.timer);
    open.timer = null;
    return open;
  }
  if (open) {
    await closeSession(file);
    await sleep(YIELD_MS);
  }
  await detaching.get(file);
  const attached = await attachWithRetry(file, timeoutMs);
  const created: Session = { ...attached, openedAt: Date.now(), timer: null };
  sessions.set(file, created);
  return created;
}

/**
 * Runs `work` inside one transaction on the store file, holding DuckDB's
 * file lock only around it. DuckDB lets one process write a file at a
 * time, so a process that kept it open would lock every other inferbench
 * (a CLI run next to a dashboard); attaching for a burst of transactions
 * and retrying on the lock error lets them take turns, and each transaction
 * means a crash mid-write leaves the previous state. Calls within one
 * process are queued, because the process's one DuckDB attaches a file
 * once: a second session on it waits for the first to detach.
 */
export function withStore<T>(file: string, work: (db: DuckDBConnection) => Promise<T>, timeoutMs = DEFAULT_LOCK_TIMEOUT_MS): Promise<T> {
  const previous = inProcessTails.get(file) ?? Promise.resolve();
  const next = previous.catch(() => undefined).then(async () => {
    const { db } = await session(file, timeoutMs);
    let ok = false;
    try {
      await db.run('BEGIN TRANSACTION');
      try {
        const result = await work(db);
        await db.run('COMMIT');
        ok = true;
        return result;
      } catch (err) {
        await db.run('ROLLBACK').catch(() => undefined);
        throw err;
      }
    } finally {
      const current = sessions.get(file);
      if (!ok) await closeSession(file);
      else if (current) current.timer = setTimeout(() => void closeSession(file), LINGER_MS);
    }
  });
  inProcessTails.set(file, next);
  void next
    .finally(() => {
      if (inProcessTails.get(file) === next) inProcessTails.delete(file);
    })
    .catch(() => undefined);
  return next;
}
