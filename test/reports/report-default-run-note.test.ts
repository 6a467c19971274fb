/**
 * The report of a run on the defaults (batch sizes 1 and 8 over the first
 * 16 rows) says so and gives the full sweep's flags; a run that asked for
 * its own batch sizes and rows gets no such note.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { renderTerminalReport } from '../../src/scenarios/classify/terminal-report.js';
import { buildSampleRun } from '../helpers/sample-run.js';

test('a default run names its batch sizes and rows and how to get the full sweep; an explicit one does not', () => {
  const sample = buildSampleRun();
  const defaults = { ...sample, config: { ...sample.config, batchSizes: [1, 8], limit: 16 } };
  const text = renderTerminalReport(defaults, { details: true, width: 100 }).replace(/\n/gu, ' ');
  assert.match(text, /This run used the defaults' batch sizes 1 and 8 over the first 16 rows, .*the full sweep is --batch-sizes 1,8,32 --limit 256/u);
  const explicit = { ...sample, config: { ...sample.config, batchSizes: [1, 8, 32], limit: 256 } };
  assert.doesNotMatch(renderTerminalReport(explicit, { details: true, width: 100 }), /the full sweep is/u);
});
