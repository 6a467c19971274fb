import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { RunRecord } from '../../../src/core/results.js';
import { hostSections } from '../../../reports/host-views.js';
import { renderCsv } from '../../../reports/csv-report.js';
import { renderPng } from '../../../reports/png-chart.js';
import { runCharts } from '../../../reports/write-run.js';
import { buildSampleRun } from '../../helpers/sample-run.js';

/** The sample run as two workers measured it: every cell twice, once per host. */
function twoHostRun(): RunRecord {
  const run = buildSampleRun();
  const cells = ['t4', 'cpu-box'].flatMap((name, i) => run.cells.map((c) => ({ ...c, host: { name, id: `${i}`.repeat(12), ...(i === 0 ? { retries: 1 } : {}) } })));
  return { ...run, cells, config: { ...run.config, queue: { url: 'redis://h:1', onEachWorker: true, workers: [{ name: 't4', id: '000000000000', environment: run.environment }, { name: 'cpu-box', id: '111111111111', environment: run.environment }] } } };
}

test('a run with hosts gets a HOSTS table, samples/s per host side by side, host columns and a per-host chart; a local run gets no host sections or chart', async () => {
  const run = twoHostRun();
  const text = hostSections(run, 80, false).join('\n');
  assert.match(text, /HOSTS/);
  assert.match(text, /t4\s+000000000000/);
  assert.match(text, /engine\s+threads\s+batch\s+cpu-box\s+t4/, 'one column per host, sorted');
  assert.match(renderCsv(run).split('\n')[0] ?? '', /,host,host_id,host_retries(,|\r?$)/);
  const chart = runCharts(run).find((c) => c.file === 'hosts.png');
  assert.ok(chart && 'spec' in chart, 'hosts.png is drawn');
  const png = await renderPng(chart.spec);
  assert.ok(png.length > 1000);
  const local = buildSampleRun();
  assert.deepEqual(hostSections(local, 80, false), []);
  assert.ok(!runCharts(local).some((c) => c.file === 'hosts.png'));
  const header = (renderCsv(local).split('\r\n')[0] ?? '').split(',');
  const row = (renderCsv(local).split('\r\n')[1] ?? '').split(',');
  assert.equal(row[header.indexOf('host')], '', 'a local cell has no host');
});
