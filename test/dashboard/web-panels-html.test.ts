/**
 * The page's one renderer of panels (src/dashboard/web/panels.js) draws a
 * table as the server describes it (reports/dashboard-panels.ts): each
 * figure formatted by its unit as the page always formatted it, a row
 * without figures saying why across the columns it leaves, names and
 * figures aligned as their columns say, and a note's filter link.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { figure, left, right, type Block, type Table } from '../../reports/dashboard-panels.js';

interface PanelsJs {
  readonly tableHtml: (table: Table) => string;
  readonly belowHtml: (blocks: readonly Block[]) => string;
  readonly emptyChartHtml: (chart: { readonly spec: null; readonly empty?: string }) => string;
}

const web = async (): Promise<PanelsJs> => (await import(new URL('../../../src/dashboard/web/panels.js', import.meta.url).href)) as PanelsJs;

/** Each row's cells as `text|class`. */
function cells(html: string): string[][] {
  return [...html.matchAll(/<tr[^>]*>(.*?)<\/tr>/g)].slice(1).map((m) => [...(m[1] ?? '').matchAll(/<td([^>]*)>(.*?)<\/td>/g)].map((c) => `${(c[2] ?? '').replace(/<[^>]+>/g, '')}|${/class="([^"]*)"/.exec(c[1] ?? '')?.[1] ?? ''}`));
}

test('a table: figures by unit, a row without figures says why across the rest, columns aligned as they say', async () => {
  const { tableHtml } = await web();
  const table: Table = {
    columns: [left('engine'), right('mean'), { ...right('95% CI'), wrap: true }, right('rate'), right('memory'), right('share'), right('±'), left('verdict')],
    rows: [
      { cells: ['onnx-cpu', figure(0.8121, 'ms'), { parts: [{ ...figure(1.5, 'ms'), whole: true }, '\u00a0– ', { ...figure(2500, 'ms'), whole: true }] }, figure(1234.5, '/s'), figure(1.2 * 1024 * 1024, 'bytes'), { value: 0.254, unit: '%' }, { ...figure(null, 'ms', '–'), prefix: '±' }, { parts: ['VALID', ' ', { text: '✗ parity', bad: true }], title: 'a <b> reason' }], tag: 'VALID' },
      { cells: ['tfjs-cpu'], reason: 'failed: out of memory', tag: '' },
    ],
  };
  const html = tableHtml(table);
  assert.deepEqual(cells(html), [
    ['onnx-cpu|', '812 µs|num', '1.50\u00a0ms\u00a0– 2.50\u00a0s|num range', '1.23k/s|num', '1.20 MiB|num', '25%|num', '–|num', 'VALID ✗ parity|'],
    ['tfjs-cpu|', 'failed: out of memory|reason'],
  ]);
  assert.match(html, /<td colspan="7" class="reason">failed: out of memory<\/td>/);
  assert.match(html, /<span class="bad">✗ parity<\/span>/);
  assert.match(html, /title="a &lt;b&gt; reason"/, 'a tooltip is escaped');
  assert.match(html, /<tr data-tag="VALID">/);
  assert.deepEqual([...html.matchAll(/<th(\s[^>]*)?>/g)].map((m) => m[1] ?? ''), ['', ' class="num"', ' class="num"', ' class="num"', ' class="num"', ' class="num"', ' class="num"', '']);
});

test('what goes under a chart: a note with its filter link, a table, a box for a further chart; an empty table and chart say so', async () => {
  const { belowHtml, emptyChartHtml } = await web();
  const html = belowHtml([
    { note: '2 of 4 cells NOISY:', filter: { tag: 'NOISY', show: 'show only those', undo: 'show every cell' } },
    { table: { columns: [left('engine')], rows: [], empty: 'No cell measured yet.' } },
    { chart: { spec: null } },
  ]);
  assert.equal(html, '<p class="note">2 of 4 cells NOISY: <a href="#" data-filter="NOISY" data-show="show only those" data-undo="show every cell">show only those</a></p><p class="muted">No cell measured yet.</p><div class="chart"></div>');
  assert.equal(emptyChartHtml({ spec: null, empty: 'No completed cell: nothing to draw.' }), '<p class="muted">No completed cell: nothing to draw.</p>');
  assert.equal(emptyChartHtml({ spec: null }), '');
});
