import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createNativeTfjsEngine } from '../../engines/tfjs/native-engine.js';
import { createTfjsEngine } from '../../engines/tfjs/tfjs-engine.js';
import type { CellResult, RunRecord } from '../../src/core/results.js';
import { renderCsv } from '../../reports/csv-report.js';
import { renderTerminalReport } from '../../src/scenarios/classify/terminal-report.js';
import { readHfFixture } from '../helpers/hf-fixtures.js';
import { exported } from '../helpers/native-exports.js';
import { parseCsv } from '../helpers/parse-csv.js';
import { buildSampleRun } from '../helpers/sample-run.js';
import { tfjsNodeSkip } from '../helpers/tfjs-node.js';

const fixture = readHfFixture('bert');

test('the translator and the GraphModel executor name themselves in the row, read from the session that ran', async () => {
  const translator = await createTfjsEngine('cpu').open(fixture.onnxPath, { threads: null, precision: 'fp32' });
  const graph = await createNativeTfjsEngine('cpu', 'graph-model').open((await exported(fixture.onnxPath, 'graph-model')).file, { threads: null, precision: 'fp32' });
  try {
    assert.equal(translator.describe().executor, 'inferbench ONNX translator');
    assert.equal(graph.describe().executor, 'tfjs-converter GraphModel');
    assert.equal(graph.describe().engine, 'tfjs-cpu-graph-model');
    assert.ok(graph.describe().notes?.some((n) => /GraphExecutor/.test(n)), 'the executor class tfjs-converter built, read back');
    assert.match(graph.describe().versions['@tensorflow/tfjs-converter'] ?? '', /^\d+\.\d+/);
  } finally {
    await translator.dispose();
    await graph.dispose();
  }
});

test('the SavedModel row names the TensorFlow session that ran it', { skip: await tfjsNodeSkip() }, async () => {
  const session = await createNativeTfjsEngine('node', 'saved-model').open((await exported(fixture.onnxPath, 'saved-model')).file, { threads: null, precision: 'fp32' });
  try {
    assert.equal(session.describe().executor, 'TensorFlow session (SavedModel)');
    assert.equal(session.describe().backend, 'tensorflow CPU');
    assert.ok(session.describe().notes?.some((n) => /one TF_SessionRun per batch \(TensorFlow session \d+/.test(n)), session.describe().notes?.join('; '));
  } finally {
    await session.dispose();
  }
});

test('results.csv has an executor column and the report names each engine\'s executor', () => {
  const base = buildSampleRun();
  const run: RunRecord = {
    ...base,
    cells: base.cells.map((c): CellResult => (c.state === 'completed' && c.engine === 'tfjs-wasm' ? { ...c, session: { ...c.session, executor: 'tfjs-converter GraphModel' } } : c)),
  };
  const [header, ...rows] = parseCsv(renderCsv(run));
  const column = header?.indexOf('executor') ?? -1;
  assert.ok(column > (header?.indexOf('backend') ?? 0), `executor column after backend: ${header?.join(',')}`);
  const wasmRow = rows.find((r) => r[header?.indexOf('engine') ?? 0] === 'tfjs-wasm');
  assert.equal(wasmRow?.[column], 'tfjs-converter GraphModel');
  assert.match(renderTerminalReport(run, { details: true, color: false }).replace(/\n +/gu, " "), /- tfjs-wasm: .* · executor tfjs-converter GraphModel · /);
});
