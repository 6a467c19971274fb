import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { HistoryStore } from '../../../src/runs/history/history-store.js';
import { packageRoot } from '../../../src/core/package-info.js';
import { testOutputDir } from '../../helpers/test-cache.js';

const WRITER = join(packageRoot(), 'dist', 'test', 'helpers', 'history-writer.js');

function writer(args: string[]): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [WRITER, ...args], { stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stderr }));
  });
}

test('two processes writing the history at once take turns: every entry and cell is there, ids are unique', async () => {
  const out = testOutputDir('history-concurrent');
  const perProcess = 15;
  const [a, b] = await Promise.all([writer(['write', out, 'writer-a', String(perProcess)]), writer(['write', out, 'writer-b', String(perProcess)])]);
  assert.equal(a.code, 0, a.stderr);
  assert.equal(b.code, 0, b.stderr);

  const store = new HistoryStore(out);
  const entries = await store.list();
  assert.equal(entries.length, 2 * perProcess);
  assert.equal(new Set(entries.map((e) => e.id)).size, 2 * perProcess, 'ids are unique');
  assert.ok(entries.every((e) => e.state === 'completed' && e.cellsDone === 1));
  for (const label of ['writer-a', 'writer-b']) {
    const details = await Promise.all(entries.map((e) => store.get(e.id)));
    const cells = details.flatMap((d) => d?.cells ?? []).filter((c) => c.engine === label);
    assert.equal(cells.length, perProcess, `${label} wrote all its cells`);
  }
});
