import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { isCleanUserError, runCli } from '../../helpers/cli.js';
import { seedEntry, TINY_RUN_ARGS, waitFor } from '../../helpers/dashboard.js';
import { testOutputDir } from '../../helpers/test-cache.js';

test('a corrupt history.duckdb is named as corrupt and backed up before anything else touches it', async () => {
  const out = join(testOutputDir('bad-input-corrupt-history'), 'out');
  const { dir } = await seedEntry(out, '2026-01-01T00-00-00Z-000000');
  const file = join(out, 'history.duckdb');
  // The store lingers open for a moment after the last write (store-access.ts), then detaches, which checkpoints the WAL into
  // the file on DuckDB's threads: damage it only after that, however long a loaded machine takes (the WAL gone says so).
  await new Promise((r) => setTimeout(r, 500));
  await waitFor('the seeded store to be checkpointed and detached', async () => (existsSync(`${file}.wal`) ? undefined : true), 30_000);
  const bytes = readFileSync(file);
  for (let i = 4096; i < bytes.length; i += 7) bytes[i] = (bytes[i] as number) ^ 0xff;
  writeFileSync(file, bytes);

  const r = await runCli(['list', '--out', out]);
  assert.ok(isCleanUserError(r), r.stderr);
  assert.equal(r.code, 2);
  assert.match(r.stderr, /the history store .*history\.duckdb is corrupt: .*(checksum|not a valid DuckDB)/);
  assert.doesNotMatch(r.stderr, /check that the output folder is writable/);
  const backups = readdirSync(out).filter((n) => /^history\.duckdb\.corrupt-\d{4}-\d\d-\d\dT\d\d-\d\d-\d\dZ$/.test(n));
  assert.equal(backups.length, 1, readdirSync(out).join(', '));
  assert.match(r.stderr, new RegExp(`fix: a copy is kept at .*${backups[0]}`));
  assert.ok(readFileSync(join(out, backups[0] as string)).equals(bytes), 'the backup holds the store as it was');
  assert.ok(readFileSync(file).equals(bytes), 'the store itself was not changed');

  await runCli(['show', '1', '--out', out]);
  assert.equal(readdirSync(out).filter((n) => n.startsWith('history.duckdb.corrupt-')).length, 1, 'one backup per corrupt file, not one per command');

  // A run still measures and writes its files; only the history is not updated.
  const run = await runCli(['run', ...TINY_RUN_ARGS, '--out', out]);
  assert.equal(run.code, 0, run.stderr);
  assert.match(run.stderr, /warning: benchmark history not updated: the history store .* is corrupt/);
  assert.ok(existsSync(join(dir, 'results.json')), 'earlier run folders are intact');
});
