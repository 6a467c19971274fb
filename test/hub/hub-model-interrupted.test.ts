import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { UserError } from '../../src/core/errors.js';
import { downloadModel } from '../../src/hub/model-download.js';
import { startMockModelHub } from '../helpers/mock-model-hub.js';
import { hubRepoFolder } from '../helpers/hub-model-repo.js';
import { testOutputDir } from '../helpers/test-cache.js';

const quiet = { start: () => {}, advance: () => {}, finish: () => {} };

function allFiles(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { recursive: true, withFileTypes: true }).filter((e) => !e.isDirectory()).map((e) => join(e.parentPath, e.name));
}

test('a download cut off midway leaves no file in the cache, and a retry completes it', async (t) => {
  const hub = await startMockModelHub([{ id: 'acme/tiny-bert', dir: await hubRepoFolder('hub-interrupt') }]);
  t.after(() => hub.close());
  const cacheDir = testOutputDir('hub-interrupt-cache');
  const opts = { onnxFiles: ['onnx/model.onnx'], hub: { endpoint: hub.url, cacheDir, token: null, offline: false }, progress: quiet };
  const repoDir = join(cacheDir, 'models--acme--tiny-bert');

  // Every attempt is cut: the download fails, and nothing of the graph is left under any name.
  hub.truncate(/^\/cdn\//, 2);
  await assert.rejects(downloadModel('acme/tiny-bert', { ...opts, fetch: { retry: { attempts: 2, baseDelayMs: 1 } } }), (err: unknown) => err instanceof UserError && /Could not download onnx\/model\.onnx .*after 2 attempts/.test(err.message));
  const left = allFiles(repoDir);
  assert.ok(!left.some((f) => f.includes('incomplete')), `partial files left: ${left.join(', ')}`);
  assert.ok(!existsSync(join(repoDir, 'snapshots', hub.commit, 'onnx', 'model.onnx')));
  const blobs = allFiles(join(repoDir, 'blobs'));
  assert.ok(blobs.every((b) => !b.endsWith('.onnx')) && blobs.length === 3, `only the small files are cached: ${blobs.join(', ')}`);

  // One cut, then a clean answer: the retry completes the file.
  hub.truncate(/^\/cdn\//, 1);
  const dir = await downloadModel('acme/tiny-bert', { ...opts, fetch: { retry: { attempts: 3, baseDelayMs: 1 } } });
  assert.ok(existsSync(join(dir, 'onnx', 'model.onnx')));
  assert.equal(hub.requests.filter((r) => r.path.startsWith('/cdn/') && r.method === 'GET').length, 4);
  assert.ok(!allFiles(repoDir).some((f) => f.includes('incomplete')));
});
