/**
 * Point 2 of issue 22: every engine has the same two scopes. Engine time is
 * the model call, and for transformers.js the pipeline's own forward; end to
 * end is callbacks, engine and read-back, and for transformers.js its whole
 * pipeline call. Every "faster" sentence, footnote, chart subtitle and CSV
 * column names its scope and compares like with like.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { renderCsv } from '../../reports/csv-report.js';
import { renderTerminalReport } from '../../src/scenarios/classify/terminal-report.js';
import { batchScalingChartSpec } from '../../reports/view-charts.js';
import { baselineRows } from '../../reports/run-views.js';
import { parseCsv } from '../helpers/parse-csv.js';
import { cellFromRounds, runOf } from '../helpers/round-cells.js';

// onnx-cpu: 0.42 ms a call, 0.5 ms of item callback around it. transformers-js: a 0.5 ms pipeline call whose own forward is 70% of it (0.35 ms).
const cells = [1, 8].flatMap((batchSize) => [
  cellFromRounds({ engine: 'onnx-cpu', batchSize, rows: 32, rounds: [{ passes: 1, meanMs: 0.41 * batchSize }, { passes: 1, meanMs: 0.43 * batchSize }, { passes: 1, meanMs: 0.42 * batchSize }] }),
  cellFromRounds({ engine: 'transformers-js', batchSize, rows: 32, forwardShare: 0.7, rounds: [{ passes: 1, meanMs: 0.49 * batchSize }, { passes: 1, meanMs: 0.51 * batchSize }, { passes: 1, meanMs: 0.5 * batchSize }] }),
]);
const run = runOf(cells);

test('engine time is the pipeline forward for transformers-js and the model call elsewhere; end to end is beside it, and every sentence names its scope', () => {
  const pipeline = baselineRows(run).find((r) => r.engine === 'transformers-js' && r.batchSize === 1);
  assert.ok(pipeline?.engineTime && pipeline.endToEnd);
  assert.ok(Math.abs(pipeline.engineTime.meanMs - 0.35) < 1e-9, 'engine time: the forward inside the pipeline call');
  assert.ok(Math.abs(pipeline.endToEnd.meanMs - 0.5) < 1e-9, 'end to end: the whole pipeline call');
  const plain = baselineRows(run).find((r) => r.engine === 'onnx-cpu' && r.batchSize === 1);
  assert.ok(Math.abs((plain?.endToEnd?.meanMs ?? 0) - 0.92) < 1e-9, 'end to end: the call and its item callback');

  const text = renderTerminalReport(run, { details: true, width: 200 }).replace(/\n {4}/gu, ' ');
  // One sentence per scope, each saying which; in engine time transformers-js is named by what was timed.
  assert.match(text, /batch 1, engine time: transformers-js \(its pipeline's forward\) is [\d.]+× faster than onnx-cpu/u);
  assert.match(text, /batch 1, end to end: transformers-js is [\d.]+× faster than onnx-cpu/u);
  // The footnote is true for the pipeline row as well as the plain one.
  assert.match(text.replace(/\s+/gu, ' '), /on pipeline rows \(transformers-js\) the pipeline's own ONNX forward inside its call/u);
  assert.doesNotMatch(text, /Engine time \(total, avg, min, max, p50, p99, samples\/s\) runs from inputs/u);

  const [header, ...rows] = parseCsv(renderCsv(run));
  assert.ok(header);
  const row = rows.find((r) => r[header.indexOf('engine')] === 'transformers-js');
  assert.ok(row);
  assert.match(row[header.indexOf('engine_scope')] ?? '', /pipeline's own ONNX forward/u);
  assert.match(row[header.indexOf('e2e_scope')] ?? '', /whole pipeline call/u);
  assert.ok(Math.abs(Number(row[header.indexOf('mean_ms')]) - 0.35) < 1e-9);
  assert.ok(Math.abs(Number(row[header.indexOf('e2e_mean_ms')]) - 0.5) < 1e-9);

  // Chart subtitles say what the engine time of a pipeline row is, instead of "tokenization excluded".
  const subtitle = JSON.stringify((batchScalingChartSpec(run) as unknown as { title: { subtitle: string[] } }).title.subtitle);
  assert.match(subtitle, /transformers-js: its pipeline's own forward/u);
  assert.doesNotMatch(subtitle, /tokenization excluded/u);
});
