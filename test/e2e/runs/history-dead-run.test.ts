import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { DEAD_OWNER_REASON, HistoryStore } from '../../../src/runs/history/history-store.js';
import { packageRoot } from '../../../src/core/package-info.js';
import { withStore } from '../../../src/runs/history/store-access.js';
import { testOutputDir } from '../../helpers/test-cache.js';

test('a run whose process died is marked interrupted when the store is next opened, and keeps its cells', async () => {
  const out = testOutputDir('history-dead-run');
  const child = spawnSync(process.execPath, [join(packageRoot(), 'dist', 'test', 'helpers', 'history-writer.js'), 'abandon', out], { encoding: 'utf8' });
  assert.equal(child.status, 0, child.stderr);
  const id = Number(child.stdout.trim());

  const store = new HistoryStore(out);
  assert.deepEqual(await store.open(), [id]);
  const entry = await store.require(id);
  assert.equal(entry.state, 'interrupted');
  assert.equal(entry.error, DEAD_OWNER_REASON);
  assert.ok(entry.finishedAt);
  assert.equal(entry.cells.length, 1, 'the measured cell is kept');
  assert.equal(entry.cellsTotal, 3);

  // A live owner (this process) is left alone.
  const mine = await store.create({ config: entry.config, source: 'cli', state: 'running' });
  assert.deepEqual(await new HistoryStore(out).open(), []);
  assert.equal((await store.require(mine)).state, 'running');

  // A dead process whose pid is now someone else's (a restarted container's pid 1, say) is still dead:
  // here the row claims this very pid, but another process token and start time.
  await withStore(store.file, async (db) => {
    await db.run(`UPDATE runs SET owner_token = 'an-earlier-process', owner_start = '1' WHERE id = $id`, { id: mine });
  });
  assert.deepEqual(await new HistoryStore(out).open(), [mine]);
  assert.equal((await store.require(mine)).state, 'interrupted');
});
