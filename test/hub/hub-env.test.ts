import assert from 'node:assert/strict';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { repoCacheDir, repoFolderName } from '../../src/hub/hub-cache.js';
import { resolveHubEnv } from '../../src/hub/hub-env.js';

test('HF_ENDPOINT, HF_TOKEN, HF_HOME / HF_HUB_CACHE and HF_HUB_OFFLINE resolve as in huggingface_hub', () => {
  assert.deepEqual(resolveHubEnv({}), {
    endpoint: 'https://huggingface.co',
    token: null,
    cacheDir: join(homedir(), '.cache', 'huggingface', 'hub'),
    offline: false,
  });
  assert.equal(resolveHubEnv({ XDG_CACHE_HOME: '/xdg' }).cacheDir, '/xdg/huggingface/hub');
  assert.equal(resolveHubEnv({ HF_HOME: '/hf' }).cacheDir, '/hf/hub');
  assert.equal(resolveHubEnv({ HF_HOME: '/hf', HF_HUB_CACHE: '/cache' }).cacheDir, '/cache');
  assert.equal(resolveHubEnv({ HF_ENDPOINT: 'https://mirror.example/' }).endpoint, 'https://mirror.example');
  assert.equal(resolveHubEnv({ HF_TOKEN: ' hf_abc ' }).token, 'hf_abc');
  assert.equal(resolveHubEnv({ HF_TOKEN: '' }).token, null);
  for (const on of ['1', 'true', 'YES', 'On']) assert.equal(resolveHubEnv({ HF_HUB_OFFLINE: on }).offline, true, on);
  for (const off of ['0', 'false', '']) assert.equal(resolveHubEnv({ HF_HUB_OFFLINE: off }).offline, false, off);
  assert.equal(resolveHubEnv({ HF_HUB_OFFLINE: '1' }, { offline: false }).offline, false, 'code overrides win');

  assert.equal(repoFolderName('dataset', 'carblacac/twitter-sentiment-analysis'), 'datasets--carblacac--twitter-sentiment-analysis');
  assert.equal(repoFolderName('model', 'bert-base-uncased'), 'models--bert-base-uncased');
  assert.equal(repoCacheDir({ cacheDir: '/c' }, 'dataset', 'a/b'), '/c/datasets--a--b');
});
