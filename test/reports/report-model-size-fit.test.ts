/**
 * MODEL SIZE gives way in order: its notes wrap narrower, then its least
 * important columns go (notes first), and the note under it says so; a
 * model name is never cut short, at 160 columns or at 80.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { renderTerminalReport } from '../../src/scenarios/classify/terminal-report.js';
import { visibleLength } from '../../reports/text-table.js';
import { buildSampleRun } from '../helpers/sample-run.js';

const LONG_NAME = 'random-init bert hidden=384,layers=6,heads=6,intermediate=1536,vocab=30522 (seed 7)';
const NOTE = 'weights are seeded random, so the outputs are not meaningful but the timings are; exported by inferbench from the architecture given with --config';

function sizeSection(text: string): string[] {
  const lines = text.split('\n');
  const start = lines.findIndex((l) => l.includes(' MODEL SIZE '));
  const end = lines.findIndex((l, i) => i > start && l.includes(' ENVIRONMENT INFORMATION '));
  return lines.slice(start, end);
}

test('MODEL SIZE keeps a long model name whole: notes wrap at 160 columns, and at 100 they are dropped, which the table says', () => {
  const sample = buildSampleRun();
  const run = { ...sample, models: [{ name: LONG_NAME, source: 'models/bert-384/model.onnx', sizeBytes: 90_000_000, notes: [NOTE] }] };
  for (const width of [160, 100]) {
    const section = sizeSection(renderTerminalReport(run, { details: true, width }));
    assert.ok(section.length > 0);
    assert.ok(section.some((l) => l.includes(LONG_NAME)), `width ${width}: the model name whole\n${section.join('\n')}`);
    assert.deepEqual(section.filter((l) => visibleLength(l) > width), [], `width ${width}`);
    if (width === 160) {
      assert.match(section.join(' '), /weights are seeded random/u, 'the notes fit, wrapped');
      assert.doesNotMatch(section.join(' '), /To fit/u);
    } else {
      assert.match(section.join(' '), /To fit 100 columns: [^.]*notes[^.]* not shown/u, section.join('\n'));
    }
  }
  const wide = sizeSection(renderTerminalReport(run, { details: true, wide: true }));
  assert.ok(wide.some((l) => l.includes(LONG_NAME) && l.includes(NOTE)), '--wide: name and note whole on one row');
});
