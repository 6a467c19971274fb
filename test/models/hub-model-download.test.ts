import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, lstatSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { downloadModel } from '../../src/hub/model-download.js';
import { TextClassification } from '../../src/models/text-classification.js';
import { startMockModelHub } from '../helpers/mock-model-hub.js';
import { hubRepoFolder } from '../helpers/hub-model-repo.js';
import { testOutputDir } from '../helpers/test-cache.js';

const quiet = { start: () => {}, advance: () => {}, finish: () => {} };
const ONNX = ['onnx/model.onnx', 'onnx/model_quantized.onnx'];

test('a Hub model is downloaded into the huggingface_hub cache layout, reused, pinned by revision and read offline', async (t) => {
  const hub = await startMockModelHub([{ id: 'acme/tiny-bert', dir: await hubRepoFolder('hub-download') }]);
  t.after(() => hub.close());
  const cacheDir = testOutputDir('hub-download-cache');
  const opts = { onnxFiles: ONNX, hub: { endpoint: hub.url, cacheDir, token: null, offline: false }, progress: quiet };

  const dir = await downloadModel('acme/tiny-bert', opts);
  const repoDir = join(cacheDir, 'models--acme--tiny-bert');
  assert.equal(dir, join(repoDir, 'snapshots', hub.commit));
  for (const f of ['config.json', 'tokenizer.json', 'tokenizer_config.json', ...ONNX]) assert.ok(existsSync(join(dir, f)), f);
  assert.ok(lstatSync(join(dir, 'onnx', 'model.onnx')).isSymbolicLink(), 'snapshot files link to blobs');
  assert.equal(readFileSync(join(repoDir, 'refs', 'main'), 'utf8'), hub.commit);
  assert.ok(readdirSync(join(repoDir, 'blobs')).length >= 5);
  assert.ok(hub.requests.some((r) => r.path.startsWith('/cdn/')), 'LFS files followed the redirect to the CDN');

  // Cached: the second run only asks for metadata.
  const before = hub.requests.length;
  assert.equal(await downloadModel('acme/tiny-bert', opts), dir);
  assert.ok(hub.requests.slice(before).every((r) => r.method === 'HEAD'), JSON.stringify(hub.requests.slice(before)));

  // Offline: no request at all, same folder.
  const offlineBefore = hub.requests.length;
  assert.equal(await downloadModel('acme/tiny-bert', { ...opts, hub: { ...opts.hub, offline: true } }), dir);
  assert.equal(hub.requests.length, offlineBefore);

  // A pinned revision gets its own snapshot and ref.
  const tagged = await downloadModel('acme/tiny-bert', { ...opts, revision: hub.tag.name });
  assert.equal(tagged, join(repoDir, 'snapshots', hub.tag.commit));
  assert.equal(readFileSync(join(repoDir, 'refs', hub.tag.name), 'utf8'), hub.tag.commit);

  // An optional variant the repo lacks is left out when asked to tolerate it.
  const partial = await downloadModel('acme/tiny-bert', { ...opts, onnxFiles: ['onnx/model_q4.onnx'], requireOnnx: false });
  assert.ok(!existsSync(join(partial, 'onnx', 'model_q4.onnx')));
});

test('TextClassification(org/name) downloads on init() with HF_ENDPOINT, HF_HUB_CACHE and --revision honoured', async (t) => {
  const hub = await startMockModelHub([{ id: 'acme/tiny-bert', dir: await hubRepoFolder('hub-textclass') }]);
  t.after(() => hub.close());
  const saved = { ...process.env };
  t.after(() => {
    for (const k of ['HF_ENDPOINT', 'HF_HUB_CACHE', 'HF_TOKEN', 'HF_HUB_OFFLINE']) {
      if (saved[k] === undefined) delete process.env[k];
      else process.env[k] = saved[k];
    }
  });
  process.env['HF_ENDPOINT'] = hub.url;
  process.env['HF_HUB_CACHE'] = testOutputDir('hub-textclass-cache');
  delete process.env['HF_TOKEN'];
  delete process.env['HF_HUB_OFFLINE'];
  const model = await new TextClassification('acme/tiny-bert', { revision: hub.tag.name }).init();
  assert.equal(model.name, 'acme/tiny-bert');
  assert.ok(model.dir.endsWith(join('models--acme--tiny-bert', 'snapshots', hub.tag.commit)));
  assert.deepEqual(model.labels, ['NEGATIVE', 'POSITIVE']);
  assert.match((await model.info()).source, /^hub:acme\/tiny-bert@v1\.0$/);
  const inputs = model.prepareBatch([{ text: 'a fine film' }], { text: 'text', label: null });
  assert.deepEqual(inputs['input_ids']?.dims.slice(0, 1), [1]);
});
