import { test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { embeddedTexts } from '../../../datasets/open-dataset.js';
import { hashModelFolder } from '../../../src/core/file-manifest.js';
import { TINY_BERT_CONFIG } from '../../../src/models/generated/bert-config.js';
import { ensureGeneratedModel } from '../../../src/models/generated/generated-model.js';
import { REDIS_SKIP, startRedis, startWorker } from '../../helpers/redis-server.js';
import { baseJob, outcomeText, QueueWatch } from '../../helpers/queue-inject.js';
import { testOutputDir, useTestCache } from '../../helpers/test-cache.js';
import { copyModelFolder } from '../../helpers/user-model-copy.js';

test('a Hub id in a job is org/name and nothing else: a local file or folder named as one is never opened, and no refusal carries its bytes', { skip: REDIS_SKIP }, async () => {
  useTestCache();
  const sandbox = testOutputDir('queue-attack-local');
  const marker = 'SECRET-9b1f4c';
  const secret = join(sandbox, 'secret.jsonl');
  writeFileSync(secret, `${marker} this line is not JSON and must never leave the worker\n`);
  const localModel = join(sandbox, 'local-model');
  copyModelFolder(await ensureGeneratedModel(TINY_BERT_CONFIG, { texts: await embeddedTexts() }), localModel);

  const redis = await startRedis();
  const worker = await startWorker(redis.url, 'reader', ['--engines', 'onnx-cpu'], { HF_HUB_OFFLINE: '1', HF_HOME: join(sandbox, 'hf') });
  const watch = await QueueWatch.open(redis.url);
  try {
    const base = await baseJob();
    // With the folder's true hash, the old worker loaded this local folder and measured it.
    const modelHash = await hashModelFolder(localModel, 'onnx/model.onnx');
    const attacks = [
      { id: 'dataset-file', data: { ...base, dataset: { kind: 'hub', id: secret } }, field: 'dataset.id' },
      { id: 'dataset-relative', data: { ...base, dataset: { kind: 'hub', id: '../secret.jsonl' } }, field: 'dataset.id' },
      { id: 'model-folder', data: { ...base, modelHash, model: { kind: 'hub', id: localModel, revision: null } }, field: 'model.id' },
      { id: 'model-dot', data: { ...base, model: { kind: 'hub', id: './local-model', revision: null } }, field: 'model.id' },
      { id: 'model-three-parts', data: { ...base, model: { kind: 'hub', id: 'org/name/extra', revision: null } }, field: 'model.id' },
      { id: 'model-revision', data: { ...base, model: { kind: 'hub', id: 'org/name', revision: '../../../../tmp/x' } }, field: 'model.revision' },
    ];
    for (const attack of attacks) {
      const outcome = await watch.add(attack.id, attack.data);
      const said = outcomeText(outcome);
      assert.ok(said.includes(`"${attack.field}"`), `${attack.id}: the refusal names the field ${attack.field}: ${said.slice(0, 300)}`);
      assert.ok(!said.includes(marker), `${attack.id}: the refusal carries the local file's bytes`);
      assert.ok(!(outcome.kind === 'completed' && (outcome.value as { kind?: string }).kind === 'cells'), `${attack.id}: a local folder was measured`);
    }
    assert.ok(!worker.log().includes(marker), 'the worker log carries the local file\'s bytes');
    assert.equal(worker.child.exitCode, null, 'the worker is still running');
  } finally {
    await watch.close();
    await worker.stop();
    await redis.stop();
  }
});
