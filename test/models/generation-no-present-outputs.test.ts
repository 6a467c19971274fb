import assert from 'node:assert/strict';
import { cp, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { CellSkip } from '../../src/core/errors.js';
import { decodeOnnxFile, writeOnnxModel } from '../../src/core/onnx/onnx-file.js';
import type { Engine } from '../../src/core/engine.js';
import { TextGeneration } from '../../src/models/text-generation.js';
import { HF_FIXTURES_DIR } from '../helpers/hf-fixtures.js';

const SOURCE = join(HF_FIXTURES_DIR, 'gpt2-past');

/** A copy of the gpt2-past fixture whose graph keeps its past_key_values inputs and drops every present.* output. */
async function withoutPresents(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'ib-no-present-'));
  after(() => rm(dir, { recursive: true, force: true }));
  await cp(SOURCE, dir, { recursive: true });
  const path = join(dir, 'onnx', 'model.onnx');
  const { model, dir: modelDir } = await decodeOnnxFile(path);
  if (model.graph) model.graph.output = (model.graph.output ?? []).filter((o) => !o.name?.startsWith('present'));
  await writeOnnxModel(model, path, modelDir);
  return dir;
}

test('a decoder with cache inputs but no present.* outputs generates without a cache, token for token as with one', async () => {
  const cached = await new TextGeneration(SOURCE).init();
  const bare = await new TextGeneration(await withoutPresents()).init();
  assert.equal(bare.decoder.hasPresentOutputs, false);
  assert.equal(cached.decoder.hasPresentOutputs, true);
  assert.ok((await bare.info()).notes.some((n) => /no present\.\* outputs/.test(n)), 'the run says it re-reads the sequence');
  const a = await cached.open('onnx-cpu');
  const b = await bare.open('onnx-cpu');
  after(async () => {
    await a.session.dispose();
    await b.session.dispose();
  });
  const ids = cached.promptIds(['I loved the cinematography.'], 8);
  const args = { input_ids: ids, max_new_tokens: 5, min_new_tokens: 5 };
  const expected = await a.generate(args);
  const actual = await b.generate(args);
  assert.deepEqual([...actual.data], [...expected.data]);
});

test('an engine whose own loop needs present.* outputs is skipped with the reason, before it opens', async () => {
  const bare = await new TextGeneration(await withoutPresents()).init();
  let opened = false;
  const engine = { id: 'transformers-js', openGenerator: async () => { opened = true; throw new Error('raw shape error'); } } as unknown as Engine;
  await assert.rejects(bare.openGenerator('transformers-js', { engine }), (err: unknown) => {
    assert.ok(err instanceof CellSkip, String(err));
    assert.match(err.message, /^transformers-js needs the cache outputs: the graph takes past_key_values but returns no present\.\* outputs/);
    assert.match(err.message, /text-generation-with-past/);
    return true;
  });
  assert.equal(opened, false);
});
