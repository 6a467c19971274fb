import { test } from 'node:test';
import assert from 'node:assert/strict';
import { comparisonChartSpec } from '../../reports/chart-spec.js';
import { renderRunComparison } from '../../src/scenarios/classify/compare-report.js';
import { renderCsv } from '../../reports/csv-report.js';
import { compareRuns } from '../../reports/run-comparison.js';
import { renderTerminalReport } from '../../src/scenarios/classify/terminal-report.js';
import { runComparisonChartSpec } from '../../reports/run-comparison-chart.js';
import { baselineRows } from '../../reports/run-views.js';
import { parseCsv } from '../helpers/parse-csv.js';
import { cellFromRounds, runOf } from '../helpers/round-cells.js';

/** Two engines whose 3 rounds are spread 10× apart each: a symmetric Student interval reaches far below zero. */
function spreadRun(id: string, scale = 1) {
  const rounds = [10, 100, 1000].map((ms) => ({ passes: 1, meanMs: ms * scale }));
  return runOf([cellFromRounds({ engine: 'onnx-cpu', batchSize: 4, rows: 16, rounds }), cellFromRounds({ engine: 'onnx-wasm', batchSize: 4, rows: 16, rounds: [...rounds].reverse() })], { id });
}

/** Every number in the chart data under fields that hold an interval's ends. */
function chartLows(spec: unknown): number[] {
  const found: number[] = [];
  const walk = (x: unknown): void => {
    if (Array.isArray(x)) x.forEach(walk);
    else if (x !== null && typeof x === 'object') {
      for (const [k, v] of Object.entries(x)) {
        if ((k === 'low' || k === 'high') && typeof v === 'number') found.push(v);
        else walk(v);
      }
    }
  };
  walk(spec);
  return found;
}

test('no interval in any table, CSV column or chart spec crosses zero on 3 widely spread rounds', () => {
  const run = spreadRun('run-a');
  for (const row of baselineRows(run)) {
    for (const ci of [row.interval, row.engineTime?.ci95, row.engineTime?.passCi95, row.endToEnd?.ci95, row.endToEnd?.passCi95]) {
      assert.ok(ci, `${row.label}: an interval`);
      assert.ok(ci.low > 0, `${row.label}: low end ${ci.low} above zero`);
    }
  }
  const [columns = [], ...lines] = parseCsv(renderCsv(run)).filter((l) => l.length > 1);
  const ciColumns = columns.flatMap((c, i) => (/ci95_(low|high)/.test(c) ? [i] : []));
  assert.ok(ciColumns.length >= 4, `CI columns: ${columns.filter((c) => c.includes('ci95')).join(', ')}`);
  for (const line of lines) for (const i of ciColumns) assert.ok(Number(line[i]) > 0, `${columns[i]} = ${line[i]}`);
  const text = renderTerminalReport(run, { details: true, width: 200 });
  assert.doesNotMatch(text, /[-−]\d[\d.,]* – [\d.,]+ (ms|s)\b/, 'no printed interval starts below zero');
  const errorBars = chartLows(comparisonChartSpec(run));
  assert.ok(errorBars.length >= 4 && errorBars.every((v) => v > 0), `comparison.png error bars: ${errorBars.join(', ')}`);
  const other = spreadRun('run-b', 1.1);
  const cmp = compareRuns(run, other);
  const compareBars = chartLows(runComparisonChartSpec(run, other, cmp));
  assert.ok(compareBars.length >= 4 && compareBars.every((v) => v > 0), `compare PNG bars: ${compareBars.join(', ')}`);
  assert.doesNotMatch(renderRunComparison(cmp, { files: ['a', 'b'], width: 200 }), /[-−]\d[\d.,]* – [\d.,]+ (ms|s)\b/);
  for (const c of cmp.cells) assert.ok(c.ratioCi && c.ratioCi.low > 0);
});
