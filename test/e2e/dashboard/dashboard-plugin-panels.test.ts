/**
 * The dashboard's page draws a scenario it has never heard of (issue 49):
 * the page kept a table of tabs by kind and picked each table's renderer
 * with `views.kind === 'load'`, so a scenario defined outside it got the
 * classification run's tabs and nothing in them. Here a scenario defined
 * only in this test gives its tabs, its settings line and its panels
 * (reports/dashboard-panels.ts), and the page shows them: its own tabs and
 * Compare, its settings, and its table with the figures formatted by unit.
 * One that describes nothing of its own gets one tab with its cells' table.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { HistoryStore } from '../../../src/runs/history/history-store.js';
import { executeStored } from '../../../src/runs/history/recorded-run.js';
import { registerScenario } from '../../../src/scenarios/scenario-registry.js';
import { figure, left, right, type Panel } from '../../../reports/dashboard-panels.js';
import { NO_DASHBOARD_BROWSER, openDashboardPage } from '../../helpers/dashboard-page.js';
import { testOutputDir, useTestCache } from '../../helpers/test-cache.js';
import { executeWordRun, type WordRecord } from '../../helpers/word-run.js';

type PageWordsRecord = WordRecord<'page-words'>;
interface PageWordsConfig {
  readonly command: 'page-words';
  readonly out: string;
  readonly words: readonly string[];
}

/** Each word's length, and its length in ms so the page's unit formatting shows. */
function panel(record: PageWordsRecord): Panel {
  return {
    chart: { spec: null, empty: 'Words are not drawn.' },
    below: [
      { note: 'Each word measured once.' },
      { table: { columns: [left('word'), right('letters'), right('as time')], rows: record.cells.map((c) => ({ cells: [c.word, String(c.length), figure(c.length, 'ms')] })) } },
    ],
  };
}

registerScenario<PageWordsRecord, PageWordsConfig>({
  command: 'page-words',
  recordKind: 'page-words',
  options: { summary: 'measure words (a scenario defined in a test)', usage: 'inferbench page-words', flags: [] },
  modelsAsked: () => ['words-model'],
  settingLines: (c) => [`  words:        ${c.words.join(', ')}`],
  settingsText: (c) => `${c.words.length} words · ${c.words.join(' ')}`,
  report: () => 'words',
  tabs: [
    { id: 'letters', title: 'Letters' },
    { id: 'again', title: 'Letters again' },
  ],
  views: (r) => ({ panels: { letters: panel(r), again: panel(r) } }),
  compare: { json: (a, b) => ({ a: { id: a.id }, b: { id: b.id }, cells: [] }), keys: (r) => new Set(r.cells.map((c) => c.word)) },
  execute: (c, h) => executeWordRun('page-words', 'words-model', c, h),
});

/** A scenario that describes no tabs and no panels: the dashboard gives it one tab, its cells' table. */
registerScenario<WordRecord<'page-plain'>, PageWordsConfig>({
  command: 'page-plain',
  recordKind: 'page-plain',
  options: { summary: 'measure words, described by nothing (a scenario defined in a test)', usage: 'inferbench page-plain', flags: [] },
  modelsAsked: () => ['plain-model'],
  settingLines: (c) => [`  words:        ${c.words.join(', ')}`],
  report: () => 'words',
  views: () => ({}),
  execute: (c, h) => executeWordRun('page-plain', 'plain-model', c, h),
});

test("the page draws a test-defined scenario's tabs, settings line and table, as the server describes them", { skip: NO_DASHBOARD_BROWSER }, async (t) => {
  useTestCache();
  const out = testOutputDir('dashboard-plugin-panels');
  const store = new HistoryStore(out);
  const config: PageWordsConfig = { command: 'page-words', out, words: ['ab', 'abcd'] };
  const { entryId } = await executeStored(config, { signal: new AbortController().signal, onCell: () => undefined }, { store, source: 'cli' });
  assert.notEqual(entryId, null);

  const { dash, page, errors } = await openDashboardPage(t, out, { engines: ['onnx-cpu'] });
  await page.goto(`${dash.url}#/runs/${entryId}`);
  await page.locator('.below-chart table').waitFor({ timeout: 120_000 });
  assert.deepEqual((await page.locator('.tab').allTextContents()).map((s) => s.trim()), ['Letters', 'Letters again', 'Compare']);
  assert.match((await page.locator('.detail-head .meta').first().textContent()) ?? '', /2 words · ab abcd/);
  assert.match((await page.locator('.chart').first().textContent()) ?? '', /Words are not drawn\./);
  assert.match((await page.locator('.below-chart .note').textContent()) ?? '', /Each word measured once\./);
  const headers = (await page.locator('.below-chart thead th').allTextContents()).map((s) => s.trim());
  assert.deepEqual(headers, ['word', 'letters', 'as time']);
  const rows = await page.locator('.below-chart tbody tr').evaluateAll((trs) => trs.map((tr) => [...tr.querySelectorAll('td')].map((td) => td.textContent ?? '')));
  assert.deepEqual(rows, [['ab', '2', '2.00 ms'], ['abcd', '4', '4.00 ms']]);

  // The second tab has its own panel; Compare is the page's own, asked of the server.
  await page.getByRole('tab', { name: 'Letters again', exact: true }).click();
  await page.locator('.tab[aria-selected="true"]', { hasText: 'Letters again' }).waitFor();
  assert.equal(await page.locator('.below-chart tbody tr').count(), 2);
  assert.deepEqual(errors, [], 'no script errors in the page');
});

test('a test-defined scenario that describes no panel gets one tab with a row per cell, and its setting lines as its settings', { skip: NO_DASHBOARD_BROWSER }, async (t) => {
  useTestCache();
  const out = testOutputDir('dashboard-plugin-plain');
  const store = new HistoryStore(out);
  const config = { command: 'page-plain', out, words: ['x', 'yy'] } as unknown as PageWordsConfig;
  const { entryId } = await executeStored(config, { signal: new AbortController().signal, onCell: () => undefined }, { store, source: 'cli' });
  const { dash, page, errors } = await openDashboardPage(t, out, { engines: ['onnx-cpu'] });
  await page.goto(`${dash.url}#/runs/${entryId}`);
  await page.locator('.below-chart table').waitFor({ timeout: 120_000 });
  assert.deepEqual((await page.locator('.tab').allTextContents()).map((s) => s.trim()), ['Views']);
  assert.match((await page.locator('.detail-head .meta').first().textContent()) ?? '', /words: x, yy/);
  const rows = await page.locator('.below-chart tbody tr').evaluateAll((trs) => trs.map((tr) => [...tr.querySelectorAll('td')].slice(0, 5).map((td) => td.textContent ?? '')));
  assert.deepEqual(rows, [['plain-model', 'onnx-cpu', '1', 'default', 'completed'], ['plain-model', 'onnx-cpu', '1', 'default', 'completed']]);
  assert.deepEqual(errors, [], 'no script errors in the page');
});
