import assert from 'node:assert/strict';
import { cpSync, mkdirSync, readFileSync, rmSync, statSync, symlinkSync, truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { UserError } from '../../src/core/errors.js';
import { TextClassification } from '../../src/models/text-classification.js';
import { decodeSavedModel, encodeSavedModel } from '../../src/models/tf-export/tf-proto.js';
import { readHfFixture } from '../helpers/hf-fixtures.js';
import { exported } from '../helpers/native-exports.js';
import { testOutputDir } from '../helpers/test-cache.js';

const fixture = readHfFixture('bert');

/** A copy of the fixture's `format` export, to break. */
async function copyOf(format: 'graph-model' | 'saved-model', name: string): Promise<string> {
  const { dir } = await exported(fixture.onnxPath, format);
  const copy = join(testOutputDir(`native-folder-${name}`), 'model');
  cpSync(dir, copy, { recursive: true });
  return copy;
}

/** Asserts that reading `dir` is refused before any engine runs, with a message matching `why`. */
async function refused(dir: string, why: RegExp): Promise<void> {
  await assert.rejects(new TextClassification(dir).init(), (err: unknown) => {
    assert.ok(err instanceof UserError, `a UserError, got ${String(err)}`);
    assert.match(err.message, why);
    assert.match(err.message, /refused before opening/);
    return true;
  });
}

test('a GraphModel whose weight shard is missing is refused before opening, naming the shard', async () => {
  const dir = await copyOf('graph-model', 'missing-shard');
  rmSync(join(dir, 'group1-shard1of1.bin'));
  await refused(dir, /group1-shard1of1\.bin is named by .*model\.json but cannot be read: it does not exist/);
});

test('a truncated weight shard is refused before opening as a short file, with the bytes it has and needs', async () => {
  const dir = await copyOf('graph-model', 'short-shard');
  const shard = join(dir, 'group1-shard1of1.bin');
  truncateSync(shard, Math.floor(statSync(shard).size / 3));
  await refused(dir, /group1-shard1of1\.bin holds \d+ bytes, but model\.json's weightsManifest needs \d+: the file is short/);
});

test('a model.json of {} is refused before opening: no format, no modelTopology', async () => {
  const dir = await copyOf('graph-model', 'empty-json');
  writeFileSync(join(dir, 'model.json'), '{}');
  await refused(dir, /model\.json has no format and no modelTopology/);
});

test('a weight path leading out of the model folder is refused, by ../ and by a link', async () => {
  const dir = await copyOf('graph-model', 'outside');
  const json = JSON.parse(readFileSync(join(dir, 'model.json'), 'utf8')) as { weightsManifest: { paths: string[] }[] };
  const outside = join(dir, '..', 'elsewhere');
  mkdirSync(outside);
  cpSync(join(dir, 'group1-shard1of1.bin'), join(outside, 'shard.bin'));
  const relative = structuredClone(json);
  (relative.weightsManifest[0] as { paths: string[] }).paths = ['../elsewhere/shard.bin'];
  writeFileSync(join(dir, 'model.json'), JSON.stringify(relative));
  await refused(dir, /names "\.\.\/elsewhere\/shard\.bin", which is outside the model folder/);
  writeFileSync(join(dir, 'model.json'), JSON.stringify(json));
  rmSync(join(dir, 'group1-shard1of1.bin'));
  symlinkSync(join(outside, 'shard.bin'), join(dir, 'group1-shard1of1.bin'));
  await refused(dir, /is a link leading outside the model folder/);
});

test('a SavedModel whose graph reads variables but has no variables/ is refused before opening', async () => {
  const dir = await copyOf('saved-model', 'no-variables');
  const file = join(dir, 'saved_model.pb');
  const saved = decodeSavedModel(new Uint8Array(readFileSync(file)));
  const meta = saved.meta_graphs?.[0];
  assert.ok(meta?.graph_def?.node);
  // A TF-made SavedModel keeps its weights as variables: one VarHandleOp is enough to need variables/.
  meta.graph_def.node.push({ name: 'Variable', op: 'VarHandleOp', input: [], attr: {} } as (typeof meta.graph_def.node)[number]);
  writeFileSync(file, encodeSavedModel(saved));
  rmSync(join(dir, 'variables'), { recursive: true, force: true });
  await refused(dir, /variables is missing, but .*saved_model\.pb reads variables from it/);
});
