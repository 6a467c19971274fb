import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import type { DuckDBConnection } from '@duckdb/node-api';
import { withStore } from '../../../src/runs/history/store-access.js';
import { testOutputDir } from '../../helpers/test-cache.js';

/** The stores attached to this process's in-memory DuckDB, seen from inside a session. */
async function attached(db: DuckDBConnection): Promise<string[]> {
  const rows = (await db.runAndReadAll(`SELECT database_name FROM duckdb_databases() WHERE database_name LIKE 'store_%'`)).getRowObjectsJS();
  return rows.map((r) => String(r['database_name']));
}

test('a session attaches the store to the process\'s DuckDB and a failed one is detached, so the next session holds the only attachment', async () => {
  const file = join(testOutputDir('store-access'), 'history.duckdb');
  await withStore(file, async (db) => {
    await db.run('CREATE TABLE t (k INTEGER)');
  });
  await assert.rejects(
    withStore(file, async (db) => {
      await db.run('INSERT INTO t VALUES (1)');
      throw new Error('the work failed');
    }),
    /the work failed/,
  );
  const { names, rows } = await withStore(file, async (db) => ({
    names: await attached(db),
    rows: (await db.runAndReadAll('SELECT count(*)::INTEGER AS n FROM t')).getRowObjectsJS()[0]?.['n'],
  }));
  assert.equal(names.length, 1, `attached: ${names.join(', ')}`);
  assert.equal(rows, 0, 'the failed session\'s insert was rolled back');
});

test('a session left idle is detached: the store is checkpointed (no WAL left) and its lock given up', async () => {
  const file = join(testOutputDir('store-access-idle'), 'history.duckdb');
  await withStore(file, async (db) => {
    await db.run('CREATE TABLE t (k INTEGER)');
    await db.run('INSERT INTO t VALUES (1)');
  });
  // Still attached (the linger timer cannot fire before this line runs): the commit sits in the WAL.
  assert.ok(existsSync(`${file}.wal`), 'the committed work is in the WAL while the store is attached');
  // The store lingers 100 ms after a transaction; well past it, the detach has run.
  for (let waited = 0; existsSync(`${file}.wal`) && waited < 10_000; waited += 50) await new Promise((r) => setTimeout(r, 50));
  assert.ok(!existsSync(`${file}.wal`), 'the WAL was checkpointed into the store on detach');
  const names = await withStore(file, attached);
  assert.equal(names.length, 1);
});

test('the store loads DuckDB from the build\'s one-file bundle (dist/vendor), not the package\'s 181 files one by one', async () => {
  await withStore(join(testOutputDir('store-access-bundle'), 'history.duckdb'), async () => undefined);
  const loaded = Object.keys(createRequire(import.meta.url).cache);
  assert.ok(loaded.some((f) => f.endsWith(join('dist', 'vendor', 'duckdb-node-api.cjs'))), 'the bundle was required');
  assert.deepEqual(loaded.filter((f) => f.includes(join('@duckdb', 'node-api', 'lib'))), [], 'no file of the package itself');
  assert.ok(loaded.some((f) => f.includes(join('@duckdb', 'node-bindings'))), 'the native binding still comes from node_modules');
});
