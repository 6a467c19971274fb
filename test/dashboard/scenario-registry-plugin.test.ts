import { test } from 'node:test';
import assert from 'node:assert/strict';
import { listFlag, parseArgs, positiveIntFlag, WIDE_FLAG } from '../../src/cli/args.js';
import { commandHelp, commands, mainHelp, scenarioCommand } from '../../src/cli/command-specs.js';
import { compareCommand } from '../../src/cli/compare-command.js';
import { listCommand, showCommand } from '../../src/cli/history-commands.js';
import { frozenOptions } from '../../src/core/flag-spec.js';
import { UserError } from '../../src/core/errors.js';
import { flagRangeHelp } from '../../src/core/option-ranges.js';
import type { StoredConfig } from '../../src/runs/history/history-entry.js';
import { HistoryStore } from '../../src/runs/history/history-store.js';
import { executeStored, type RecordedOutcome, type RecordOptions } from '../../src/runs/history/recorded-run.js';
import { registerScenario, scenarioByCommand } from '../../src/scenarios/scenario-registry.js';
import { RunQueue, type QueueEvent } from '../../src/dashboard/run-queue.js';
import { checkFieldRanges } from '../../src/scenarios/request-fields.js';
import { call, startTestDashboard, waitForEnd } from '../helpers/dashboard.js';
import { testOutputDir, useTestCache } from '../helpers/test-cache.js';
import { executeWordRun, type WordRecord } from '../helpers/word-run.js';

/**
 * A scenario defined only here: it "measures" the length of each word it
 * is given. One `registerScenario` call is all it takes for the history,
 * `list`, `show`, `compare` and the dashboard to serve it, and for the CLI
 * to parse its flags and print its help, with no file outside this test touched.
 */
type EchoRecord = WordRecord<'echo-test'>;
interface EchoConfig {
  readonly command: 'echo-test';
  readonly out: string;
  readonly model: string;
  readonly engines: readonly string[];
  readonly words: readonly string[];
}

/** Its options, as a built-in scenario's sit in src/scenarios/<name>/<name>-options.ts: a ranged flag, a list, and a CLI-wide flag by slot. */
const ECHO_OPTIONS = frozenOptions({
  summary: 'measure the length of each word (a scenario defined in a test)',
  usage: 'inferbench echo-test --words a,b [--limit N]',
  flags: [
    { name: 'words', kind: 'value', arg: 'a,b', help: 'words to measure' },
    { name: 'limit', kind: 'value', range: 'limit', arg: 'N', help: 'words measured at most' },
    { cliFlag: 'wide' },
  ],
  details: 'Echo details line.',
} as const);

registerScenario<EchoRecord, EchoConfig>({
  command: 'echo-test',
  recordKind: 'echo-test',
  options: ECHO_OPTIONS,
  modelsAsked: (c) => [c.model],
  settingLines: (c) => [`  words:        ${c.words.join(', ')}`],
  report: (r) => `ECHO REPORT: ${r.cells.map((c) => `${c.word}=${c.length}`).join(' ')}`,
  views: (r) => ({ echo: r.cells.map((c) => ({ word: c.word, length: c.length })) }),
  compare: {
    terminal: (a, b) => ({ text: `ECHO COMPARE: ${a.cells.length} vs ${b.cells.length} words\n`, chart: null }),
    json: (a, b) => ({ a: { id: a.id }, b: { id: b.id }, echo: [a.record.cells.length, b.record.cells.length] }),
    keys: (r) => new Set(r.cells.map((c) => c.word)),
  },
  execute: (config, hooks) => executeWordRun('echo-test', 'echo-model', config, hooks),
  // Its dashboard part: `POST /api/echo-test` takes the JSON fields its options table gives (`words`, `limit`), checked as a built-in's are.
  api: {
    route: 'echo-test',
    load: async () => ({
      start: {
        fields: ['words', 'limit'],
        parse: (fields, ctx) => {
          checkFieldRanges(fields);
          const words = (fields['words'] as readonly string[] | undefined) ?? ['echo'];
          return echoConfig(ctx.out, words.slice(0, (fields['limit'] as number | undefined) ?? words.length));
        },
      },
      recheckPaths: (config) => config,
      resolveStored: (config, ctx) => ({ ...config, out: ctx.out }),
    }),
  },
});

/**
 * The trivial measure function, run by the one run driver and recorded in
 * the history like any scenario's run: the scenario's `execute`, which the
 * dashboard's queue finds by the stored config's command.
 */
function executeEcho(config: EchoConfig, opts: RecordOptions): Promise<RecordedOutcome<EchoRecord>> {
  return executeStored(config, { signal: new AbortController().signal, onCell: () => undefined }, opts) as Promise<RecordedOutcome<EchoRecord>>;
}

const echoConfig = (out: string, words: readonly string[]): EchoConfig => ({ command: 'echo-test', out, model: 'echo-model', engines: ['onnx-cpu'], words });

async function runEcho(out: string, store: HistoryStore, words: readonly string[]): Promise<number> {
  const { entryId } = await executeEcho(echoConfig(out, words), { store, source: 'cli' });
  assert.notEqual(entryId, null);
  return entryId as number;
}

/** Runs a CLI command in this process (where the scenario is registered) and answers what it printed. */
async function printed(command: () => Promise<number>): Promise<string> {
  const write = process.stdout.write.bind(process.stdout);
  let text = '';
  process.stdout.write = ((chunk: string | Uint8Array) => {
    text += String(chunk);
    return true;
  }) as typeof process.stdout.write;
  try {
    assert.equal(await command(), 0);
  } finally {
    process.stdout.write = write;
  }
  return text;
}

test("the CLI builds a test-defined scenario's command from the registry: its help and its flags' parsing, ranges included", () => {
  const spec = scenarioCommand(scenarioByCommand('echo-test'));
  assert.equal(spec.name, 'echo-test');
  // The scenario's own flags in its order, the CLI-wide one filled in where its slot is, and --help last.
  assert.deepEqual(spec.flags.map((f) => f.name), ['words', 'limit', 'wide', 'help']);
  assert.equal(spec.flags[2], WIDE_FLAG);
  assert.ok(commands().some((c) => c.name === 'echo-test'));
  assert.match(mainHelp(), /^ {2}echo-test +measure the length of each word \(a scenario defined in a test\)$/m);

  const help = commandHelp(spec);
  assert.ok(help.startsWith('measure the length of each word (a scenario defined in a test)\n\nUsage: inferbench echo-test --words a,b [--limit N]\n\nOptions:\n'), help);
  assert.match(help, /^ {2}--words a,b {2}words to measure$/m);
  assert.ok(help.includes(`  --limit N    words measured at most; ${flagRangeHelp('limit')}\n`), help);
  assert.ok(help.includes(`  --wide       ${WIDE_FLAG.help}\n  --help       show this help\n\nEcho details line.\n`), help);

  const args = parseArgs(['--words', 'ab,abc', '--limit=2', '--wide'], spec.flags, spec.name);
  assert.deepEqual(listFlag(args, 'words'), ['ab', 'abc']);
  assert.equal(positiveIntFlag(args, 'limit', 'limit'), 2);
  assert.equal(args.flags['wide'], true);
  assert.equal(parseArgs(['--help'], spec.flags, spec.name).flags['help'], true);
  assert.throws(
    () => parseArgs(['--batch-sizes', '8'], spec.flags, spec.name),
    (e: unknown) => e instanceof UserError && /unknown option --batch-sizes for `inferbench echo-test`/.test(e.message) && e.fix === 'valid options: --words, --limit, --wide, --help',
  );
  assert.throws(() => positiveIntFlag(parseArgs(['--limit', '99999999999'], spec.flags, spec.name), 'limit', 'limit'), (e: unknown) => e instanceof UserError && /--limit/.test(e.message));
  // The table is frozen: no reader can change what the CLI and another reader see.
  assert.ok(Object.isFrozen(ECHO_OPTIONS) && Object.isFrozen(ECHO_OPTIONS.flags) && ECHO_OPTIONS.flags.every((f) => Object.isFrozen(f)));
});

test('a scenario defined in a test file runs through the run driver, and is listed, shown, compared and served by the dashboard', async (t) => {
  useTestCache();
  const out = testOutputDir('scenario-registry-plugin');
  const store = new HistoryStore(out);
  // The words come from an argv parsed with the command the registry gives the CLI.
  const spec = scenarioCommand(scenarioByCommand('echo-test'));
  const first = await runEcho(out, store, listFlag(parseArgs(['--words', 'ab,abc'], spec.flags, spec.name), 'words') ?? []);
  const second = await runEcho(out, store, ['abc', 'abcd', 'x']);

  const entry = await store.get(first);
  assert.equal(entry?.state, 'completed');
  assert.equal(entry?.cellsDone, 2);

  const list = await printed(() => listCommand({ flags: { out }, positionals: [] }));
  assert.match(list, /echo-model/);
  assert.match(list, new RegExp(`\\b${second}\\b`));

  const show = await printed(() => showCommand({ flags: { out }, positionals: [String(first)] }));
  assert.match(show, /command: +echo-test/);
  assert.match(show, /words: +ab, abc/);
  assert.match(show, /ECHO REPORT: ab=2 abc=3/);

  const compared = await printed(() => compareCommand({ flags: { out, 'no-png': true }, positionals: [String(first), String(second)] }));
  assert.match(compared, /ECHO COMPARE: 2 vs 3 words/);

  const dash = await startTestDashboard(out, { engines: ['onnx-cpu'] });
  t.after(() => dash.close());
  const views = await call(dash.url, 'GET', `/api/runs/${first}/views`);
  assert.equal(views.status, 200, JSON.stringify(views.body));
  assert.equal(views.body.kind, 'echo-test');
  assert.equal(views.body.available, true);
  assert.deepEqual(views.body.echo, [{ word: 'ab', length: 2 }, { word: 'abc', length: 3 }]);
  // What the page draws before the views come, as the registry says it: a scenario without tabs of its own gets one, and Compare
  // since it compares; without a settings line of its own, its `show` setting lines on one line.
  const listed = (await call(dash.url, 'GET', '/api/runs')).body.entries.find((e: { id: number }) => e.id === first);
  assert.deepEqual(listed.tabs, [{ id: 'views', title: 'Views' }, { id: 'compare', title: 'Compare' }]);
  assert.equal(listed.settingsText, 'words: ab, abc');
  assert.equal(listed.route, 'echo-test');
  // Its one tab's panel, which it does not describe: a row per cell naming it and how it ended, drawn as any table is.
  const { belowHtml } = (await import(new URL('../../../src/dashboard/web/panels.js', import.meta.url).href)) as { belowHtml: (blocks: unknown) => string };
  const html = belowHtml(views.body.panels.views.below);
  const drawn = [...html.matchAll(/<tr>(.*?)<\/tr>/g)].map((m) => [...(m[1] ?? '').matchAll(/<t[dh][^>]*>([^<]*)<\/t[dh]>/g)].map((c) => c[1]));
  assert.deepEqual(drawn, [
    ['model', 'engine', 'batch', 'threads', 'state', 'mean', 'p95', 'rate'],
    ['echo-model', 'onnx-cpu', '1', 'default', 'completed', '–', '–', '–'],
    ['echo-model', 'onnx-cpu', '1', 'default', 'completed', '–', '–', '–'],
  ]);
  const comparable = await call(dash.url, 'GET', `/api/runs/${first}/comparable`);
  assert.deepEqual(comparable.body.candidates, [{ id: second, common: 1, cells: 3 }]);
  const pair = await call(dash.url, 'GET', `/api/compare?a=${first}&b=${second}`);
  assert.equal(pair.status, 200, JSON.stringify(pair.body));
  assert.deepEqual(pair.body.echo, [2, 3]);
});

test("the dashboard's queue runs a stored config of a test-defined scenario, found by its command, with its cells' progress", async () => {
  useTestCache();
  const out = testOutputDir('scenario-registry-plugin-queue');
  const store = new HistoryStore(out);
  const config = echoConfig(out, ['q', 'qq', 'qqq']);
  const id = await store.create({ config: config as unknown as StoredConfig, source: 'api', state: 'queued', compareWith: null });
  const queue = new RunQueue(store);
  const events: QueueEvent[] = [];
  const finished = new Promise<QueueEvent>((resolve) =>
    queue.on('event', (event) => {
      events.push(event);
      if (event.type === 'finished' && event.id === id) resolve(event);
    }),
  );
  queue.enqueue(id, config as unknown as StoredConfig, 'api');
  assert.deepEqual(await finished, { type: 'finished', id, state: 'completed', error: null });
  const entry = await store.get(id);
  assert.equal(entry?.state, 'completed');
  assert.equal(entry?.cellsDone, 3);
  const done = events.flatMap((e) => (e.type === 'progress' ? [e.progress.done] : []));
  assert.deepEqual([...new Set(done)], [0, 1, 2, 3], 'each cell that ended moved the progress on, in order');
  assert.ok(events.some((e) => e.type === 'progress' && e.progress.current?.engine === 'onnx-cpu'), 'a cell start names its engine');
});

test("a test-defined scenario is started through the dashboard's HTTP API: its fields come from its options and are checked as a built-in's, and it runs through the queue", async (t) => {
  useTestCache();
  const out = testOutputDir('scenario-registry-plugin-api');
  const dash = await startTestDashboard(out, { engines: ['onnx-cpu'] });
  t.after(() => dash.close());

  // A value out of range: the same 400 a built-in's `limit` gets, naming the field and the range of core/option-ranges.ts.
  const tooMany = await call(dash.url, 'POST', '/api/echo-test', { words: ['ab'], limit: 99999999999 });
  const builtIn = await call(dash.url, 'POST', '/api/runs', { limit: 99999999999 });
  assert.equal(tooMany.status, 400, JSON.stringify(tooMany.body));
  assert.equal(tooMany.body.field, 'limit');
  assert.match(tooMany.body.error, /^limit must be a whole number from 1 to 10000000 rows, got 99999999999/);
  assert.deepEqual(tooMany.body, builtIn.body);
  // The JSON kind derived from the flag (`--words a,b` is a list of names), and the field list with compareWith last.
  const notList = await call(dash.url, 'POST', '/api/echo-test', { words: 'ab' });
  assert.equal(notList.status, 400);
  assert.equal(notList.body.field, 'words');
  assert.match(notList.body.error, /^words must be a non-empty list of names/);
  const unknown = await call(dash.url, 'POST', '/api/echo-test', { batchSizes: [1] });
  assert.equal(unknown.status, 400);
  assert.equal(unknown.body.field, 'batchSizes');
  assert.match(unknown.body.fix, /valid fields: words, limit, compareWith$/);
  assert.deepEqual((await call(dash.url, 'GET', '/api/runs')).body.entries, [], 'no bad request was queued');

  const started = await call(dash.url, 'POST', '/api/echo-test', { words: ['ab', 'abc', 'abcd'], limit: 2 });
  assert.equal(started.status, 201, JSON.stringify(started.body));
  const entry = await waitForEnd(dash.url, started.body.id);
  assert.equal(entry.state, 'completed', JSON.stringify(entry));
  assert.equal(entry.cellsDone, 2);
  assert.equal(entry.config.command, 'echo-test');
  assert.equal(entry.config.out, out, 'written where the dashboard writes');
  const views = await call(dash.url, 'GET', `/api/runs/${started.body.id}/views`);
  assert.deepEqual(views.body.echo, [{ word: 'ab', length: 2 }, { word: 'abc', length: 3 }]);

  // A rerun goes through the scenario's own stored-config check too.
  const again = await call(dash.url, 'POST', `/api/runs/${started.body.id}/rerun`);
  assert.equal(again.status, 201, JSON.stringify(again.body));
  assert.equal((await waitForEnd(dash.url, again.body.id)).state, 'completed');
});

test("the built-in scenarios' request fields, derived from their options, are the ones the API always listed, in order", async (t) => {
  useTestCache();
  const dash = await startTestDashboard(testOutputDir('scenario-registry-plugin-fields'), { engines: ['onnx-cpu'] });
  t.after(() => dash.close());
  const listed: Record<string, string> = {
    runs: 'model, models, revision, dtypes, architectures, sequenceLengths, engines, browsers, engineOptions, batchSizes, threads, dataset, datasetConfig, split, textColumn, labelColumn, limit, warmupBatches, rounds, stop, maxCv, parity, isolate, png, calibrationRows, calibrationMethod, profile, task, saveOutputs, skipBadRows, compareWith',
    generate: 'model, engines, engineOptions, batchSizes, promptLengths, newTokens, runs, rounds, warmupRuns, threads, dataset, textColumn, promptLimit, fixedLength, isolate, png, compareWith',
    train: 'models, architectures, engines, engineOptions, batchSizes, sequenceLengths, steps, warmSteps, optimizer, learningRate, dataset, textColumn, labelColumn, rounds, threads, png, isolate, compareWith',
    load: 'models, engines, engineOptions, threads, dataset, textColumn, limit, rates, findPeak, arrival, burstiness, seed, durationMs, minQueries, warmupMs, maxBatch, maxWaitMs, slo, rounds, isolate, png, compareWith',
  };
  for (const [route, fields] of Object.entries(listed)) {
    const r = await call(dash.url, 'POST', `/api/${route}`, { nope: 1 });
    assert.equal(r.status, 400, route);
    assert.deepEqual(r.body, { error: 'unknown field nope', fix: `valid fields: ${fields}`, field: 'nope' }, route);
  }
  assert.equal((await call(dash.url, 'POST', '/api/nope', {})).status, 404, 'no scenario starts at /api/nope');
  // generate's rounds, as `inferbench generate --rounds` and docs/dashboard.md have it, checked against the one range table.
  const rounds = await call(dash.url, 'POST', '/api/generate', { rounds: 0 });
  assert.equal(rounds.status, 400);
  assert.equal(rounds.body.field, 'rounds', JSON.stringify(rounds.body));
  assert.doesNotMatch(rounds.body.error, /unknown field/, 'rounds is a field of generate');
  assert.match(`${rounds.body.error} ${rounds.body.fix}`, /1/, 'the range is named');
});
