import { test } from 'node:test';
import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { UserError } from '../../../src/core/errors.js';
import { downloadModel } from '../../../src/hub/model-download.js';
import { startMockModelHub } from '../../helpers/mock-model-hub.js';
import { hubRepoFolder } from '../../helpers/hub-model-repo.js';
import { testOutputDir } from '../../helpers/test-cache.js';
import { isCleanUserError, runCli } from '../../helpers/cli.js';

const quiet = { start: () => {}, advance: () => {}, finish: () => {} };

test('Hub 404 and 401/403 answers become clear messages naming the model and the fix', async (t) => {
  const repo = await hubRepoFolder('hub-errors');
  const noTokenizer = await hubRepoFolder('hub-errors-broken');
  rmSync(join(noTokenizer, 'tokenizer.json'));
  const hub = await startMockModelHub([
    { id: 'acme/tiny-bert', dir: repo },
    { id: 'acme/secret', dir: repo, access: 'private' },
    { id: 'acme/gated', dir: repo, access: 'gated' },
    { id: 'acme/broken', dir: noTokenizer },
  ]);
  t.after(() => hub.close());
  const cacheDir = testOutputDir('hub-errors-cache');
  const get = (id: string, token: string | null = null, extra: object = {}) =>
    downloadModel(id, { onnxFiles: ['onnx/model.onnx'], hub: { endpoint: hub.url, cacheDir, token, offline: false }, progress: quiet, fetch: { retry: { attempts: 1 } }, ...extra });
  const rejects = (p: Promise<unknown>, message: RegExp, fix: RegExp) =>
    assert.rejects(p, (err: unknown) => err instanceof UserError && message.test(err.message) && fix.test(err.fix ?? '') ? true : assert.fail(`${String(err)} / ${(err as UserError).fix}`));

  await rejects(get('acme/nope', 'hf_some_token'), /Model "acme\/nope" was not found on http:\/\/127\.0\.0\.1:\d+: HTTP 404/, /Check the id/);
  await rejects(get('acme/nope'), /Model "acme\/nope" was not found .*, or is private: HTTP 401/, /HF_TOKEN/);
  await rejects(get('acme/secret'), /Model "acme\/secret" was not found .*, or is private: HTTP 401/, /HF_TOKEN/);
  assert.ok(await get('acme/secret', hub.token), 'the token opens a private repo');
  await rejects(get('acme/gated', hub.token), /Model "acme\/gated": access refused \(HTTP 403\)/, /accept its terms/);
  await rejects(get('acme/broken'), /HTTP 404 for tokenizer\.json/, /./);
  await rejects(get('acme/tiny-bert', null, { onnxFiles: ['onnx/model_q4.onnx'] }), /HTTP 404 for onnx\/model_q4\.onnx/, /./);
  await rejects(get('acme/tiny-bert', null, { revision: 'no-such-branch' }), /HTTP 404 .*Invalid rev id: no-such-branch/, /./);
  await rejects(get('acme/never-downloaded', null, { hub: { endpoint: hub.url, cacheDir, token: null, offline: true } }), /HF_HUB_OFFLINE is set, and model "acme\/never-downloaded"/, /without HF_HUB_OFFLINE/);
});

test('inferbench run --model with an unknown Hub id exits with the Hub message and no stack', async (t) => {
  const hub = await startMockModelHub([]);
  t.after(() => hub.close());
  const r = await runCli(['run', '--model', 'acme/missing-model', '--engines', 'onnx-cpu'], {
    env: { HF_ENDPOINT: hub.url, HF_HUB_CACHE: testOutputDir('hub-cli-404'), HF_TOKEN: '', HF_HUB_OFFLINE: '' },
  });
  assert.ok(isCleanUserError(r), r.stderr);
  assert.match(r.stderr, /Model "acme\/missing-model" was not found/);
});
