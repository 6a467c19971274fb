import assert from 'node:assert/strict';
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { call, startTestDashboard } from '../helpers/dashboard.js';
import { testOutputDir } from '../helpers/test-cache.js';

test("the dashboard's root covers every file a model names: a model.json weight path and symlinks at any depth leading out of --root get a 400", async (t) => {
  const base = testOutputDir('dashboard-model-paths');
  const root = join(base, 'root');
  const elsewhere = join(base, 'elsewhere');
  mkdirSync(elsewhere);
  writeFileSync(join(elsewhere, 'shard.bin'), Buffer.alloc(16));
  writeFileSync(join(elsewhere, 'model.onnx'), 'not really a graph');
  writeFileSync(join(elsewhere, 'tokenizer.json'), '{}');

  // A GraphModel in the root whose manifest names its weights outside it.
  const gm = join(root, 'models', 'gm');
  mkdirSync(gm, { recursive: true });
  writeFileSync(join(gm, 'model.json'), JSON.stringify({ format: 'graph-model', modelTopology: { node: [] }, weightsManifest: [{ paths: ['../../../elsewhere/shard.bin'], weights: [] }] }));
  writeFileSync(join(gm, 'config.json'), '{}');
  // An ONNX folder whose graph (one level down) and tokenizer are links leading out.
  const linked = join(root, 'linked');
  mkdirSync(join(linked, 'onnx'), { recursive: true });
  writeFileSync(join(linked, 'config.json'), '{}');
  symlinkSync(join(elsewhere, 'model.onnx'), join(linked, 'onnx', 'model.onnx'));
  symlinkSync(join(elsewhere, 'tokenizer.json'), join(linked, 'tokenizer.json'));

  const dash = await startTestDashboard(join(base, 'out'), { root, engines: ['onnx-cpu'] });
  t.after(() => dash.close());
  const cases: [string, string, unknown, string, RegExp][] = [
    ['weights named outside', '/api/load', { models: ['models/gm'], rates: [10] }, 'models[0]', /names ".*elsewhere\/shard\.bin", outside the folders this dashboard may read/],
    ['links out, load', '/api/load', { models: ['linked'], rates: [10] }, 'models[0]', /holds a symbolic link out to reach ".*linked\/(onnx\/model\.onnx|tokenizer\.json)", outside the folders/],
    ['links out, run', '/api/runs', { model: 'linked', engines: ['onnx-cpu'] }, 'model', /holds a symbolic link out to reach .*outside the folders/],
  ];
  for (const [what, path, body, field, message] of cases) {
    const r = await call(dash.url, 'POST', path, body);
    assert.equal(r.status, 400, `${what}: ${JSON.stringify(r.body)}`);
    assert.equal(r.body.field, field, what);
    assert.match(r.body.error, message, what);
    assert.match(r.body.fix, /--allow/, what);
  }
});
