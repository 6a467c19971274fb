import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { dispatch } from '../../src/cli/dispatch.js';
import { rerunCommand } from '../../src/cli/history-commands.js';
import { frozenOptions } from '../../src/core/flag-spec.js';
import { UserError } from '../../src/core/errors.js';
import type { StoredConfig } from '../../src/runs/history/history-entry.js';
import { HistoryStore } from '../../src/runs/history/history-store.js';
import type { RunOutcome } from '../../src/scenarios/run-driver.js';
import { registerScenario, type ScenarioProgress, type ScenarioRunHooks } from '../../src/scenarios/scenario-registry.js';
import { testOutputDir, useTestCache } from '../helpers/test-cache.js';
import { executeWordRun, type WordRecord as WordRecordOf } from '../helpers/word-run.js';
import { defaultRegistry } from '../../engines/registry.js';

/**
 * A scenario defined only here, as test/dashboard/scenario-registry-plugin
 * defines one: it "measures" the length of each word. Its registration
 * (with `configFromFlags`) is all the CLI needs to dispatch its command
 * and to rerun a stored config of it; no file in src/cli names it.
 */
type WordRecord = WordRecordOf<'word-length-test'>;
interface WordConfig {
  readonly command: 'word-length-test';
  readonly out: string;
  readonly words: readonly string[];
}

function executeWords(config: WordConfig, hooks: ScenarioRunHooks<WordRecord, ScenarioProgress>): Promise<RunOutcome<WordRecord>> {
  return executeWordRun('word-length-test', 'word-model', config, hooks);
}

const WORD_OPTIONS = frozenOptions({
  summary: 'measure the length of each word (a scenario defined in a CLI test)',
  usage: 'inferbench word-length-test --words a,b [--out DIR]',
  flags: [
    { name: 'words', kind: 'value', arg: 'a,b', help: 'words to measure' },
    { name: 'out', kind: 'value', arg: 'DIR', help: 'history folder' },
    { cliFlag: 'wide' },
    { cliFlag: 'quiet' },
  ],
} as const);

registerScenario<WordRecord, WordConfig>({
  command: 'word-length-test',
  recordKind: 'word-length-test',
  options: WORD_OPTIONS,
  modelsAsked: () => ['word-model'],
  settingLines: (c) => [`  words:        ${c.words.join(', ')}`],
  report: (r, o) => `WORD REPORT${o.wide === true ? ' (wide)' : ''}: ${r.cells.map((c) => `${c.word}=${c.length}`).join(' ')}`,
  views: (r) => ({ words: r.cells.map((c) => c.word) }),
  execute: executeWords,
  configFromFlags: (flags) => ({ command: 'word-length-test', out: flags.out, words: flags.list('words') ?? [] }),
});

/** A scenario that only the dashboard starts: registered with no `configFromFlags`. */
registerScenario<WordRecord, WordConfig>({
  command: 'stored-only-test',
  recordKind: 'stored-only-test',
  options: frozenOptions({ summary: 'a scenario with no command-line config (a CLI test)', usage: 'inferbench stored-only-test', flags: [] }),
  modelsAsked: () => [],
  settingLines: () => [],
  report: () => 'STORED ONLY',
  views: () => ({}),
  execute: executeWords,
});

/**
 * Runs a CLI function in this process, where the scenarios above are
 * registered, and answers its code and the text it printed. The CLI writes
 * text; bytes (the test runner's own messages to its parent) pass through.
 */
async function captured(command: () => Promise<number>): Promise<{ code: number; stdout: string; stderr: string }> {
  const writes = { stdout: process.stdout.write.bind(process.stdout), stderr: process.stderr.write.bind(process.stderr) };
  const text = { stdout: '', stderr: '' };
  const into = (key: 'stdout' | 'stderr') =>
    ((chunk: string | Uint8Array, ...rest: never[]) => {
      if (typeof chunk !== 'string') return writes[key](chunk, ...rest);
      text[key] += chunk;
      return true;
    }) as typeof process.stdout.write;
  process.stdout.write = into('stdout');
  process.stderr.write = into('stderr');
  try {
    const code = await command();
    return { code, ...text };
  } finally {
    process.stdout.write = writes.stdout;
    process.stderr.write = writes.stderr;
  }
}

test("the CLI's dispatch runs a test-defined scenario from its flags, and rerun repeats it as a new entry linked to the first", async () => {
  useTestCache();
  const out = testOutputDir('scenario-dispatch-plugin');
  const first = await captured(() => dispatch(['word-length-test', '--words', 'ab,abc', '--out', out, '--quiet']));
  assert.equal(first.code, 0, first.stderr);
  assert.match(first.stdout, /^WORD REPORT: ab=2 abc=3$/m);
  assert.match(first.stdout, new RegExp(`History: benchmark 1 \\(inferbench show 1 --out ${JSON.stringify(out).replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}\\)`));
  const store = new HistoryStore(out);
  const entry = await store.require(1);
  assert.equal(entry.state, 'completed');
  assert.equal(entry.cellsDone, 2);
  assert.deepEqual((entry.config as unknown as WordConfig).words, ['ab', 'abc']);

  // `--wide` reaches the scenario's report: the rerun's flags are read as `show` reads them.
  const again = await captured(() => rerunCommand({ flags: { out, quiet: true, wide: true }, positionals: ['1'] }, defaultRegistry));
  assert.equal(again.code, 0, again.stderr);
  assert.match(again.stderr, /^inferbench: re-running benchmark 1 with the same settings$/m);
  assert.match(again.stdout, /^WORD REPORT \(wide\): ab=2 abc=3$/m);
  assert.match(again.stdout, /History: benchmark 2 /);
  const rerun = await store.require(2);
  assert.equal(rerun.rerunOf, 1);
  assert.equal(rerun.state, 'completed');
  assert.equal(rerun.cellsDone, 2);
  assert.deepEqual((rerun.config as unknown as WordConfig).words, ['ab', 'abc']);

  // Without --quiet, each cell's end is a progress line on stderr.
  const shown = await captured(() => dispatch(['rerun', '2', '--out', out]));
  assert.equal(shown.code, 0, shown.stderr);
  assert.match(shown.stderr, /^\[2\/2\] cell done$/m);
  assert.equal((await store.require(3)).rerunOf, 2);
});

test('rerun refuses a stored config of a scenario this inferbench has not registered, and dispatch one that has no command-line config, each naming the fix', async () => {
  useTestCache();
  const out = testOutputDir('scenario-dispatch-plugin-refused');
  const store = new HistoryStore(out);
  const id = await store.create({ config: { command: 'not-loaded-test', out } as unknown as StoredConfig, source: 'api', state: 'queued', compareWith: null });
  await assert.rejects(
    captured(() => rerunCommand({ flags: { out }, positionals: [String(id)] }, defaultRegistry)),
    (e: unknown) => e instanceof UserError && e.message === `benchmark ${id} is a not-loaded-test run, and the not-loaded-test scenario is not registered in this inferbench` && /rerun it with the inferbench/.test(e.fix ?? ''),
  );
  assert.equal((await store.list()).length, 1, 'nothing was added to the history');
  await assert.rejects(
    dispatch(['stored-only-test']),
    (e: unknown) => e instanceof UserError && /stored-only-test scenario cannot be started from the command line/.test(e.message) && /configFromFlags/.test(e.fix ?? ''),
  );
});
