import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { RunRecord } from '../../src/core/results.js';
import { compareRuns } from '../../reports/run-comparison.js';
import { buildSampleRun } from '../helpers/sample-run.js';

/** The sample run as measured by the named queue workers. */
function onHosts(names: readonly string[]): RunRecord {
  const run = buildSampleRun();
  return { ...run, cells: names.flatMap((name) => run.cells.map((c) => ({ ...c, host: { name, id: 'abcdefabcdef' } }))) };
}

test('compare matches a distributed run\'s cells host by host, and never a worker\'s cell with a local one', () => {
  const twoHosts = compareRuns(onHosts(['t4', 'a100']), onHosts(['a100', 't4']));
  const local = buildSampleRun();
  assert.equal(twoHosts.cells.length, local.cells.length * 2, 'every cell of each host matched once');
  assert.equal(twoHosts.onlyInA.length + twoHosts.onlyInB.length, 0);
  assert.ok(twoHosts.cells.every((c) => c.a.host?.name === c.b.host?.name));
  assert.ok(twoHosts.cells.some((c) => / @ t4/.test(c.label)) && twoHosts.cells.some((c) => / @ a100/.test(c.label)), 'labels name the host');
  const mixed = compareRuns(local, onHosts(['t4']));
  assert.equal(mixed.cells.length, 0, 'a local cell and a worker\'s cell are different machines');
});
