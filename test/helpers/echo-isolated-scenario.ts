/**
 * A scenario defined only by this test helper ('echo-isolated'): each word
 * is a cell, "measured" by the test child job of echo-child-job.ts, which
 * upper-cases it and answers with its pid. Its registration names that
 * module (`childModule`), and nothing else: with `isolate` on, its cells
 * run in a fresh child process through the one isolated launcher and child
 * entry (runs/scenario-launch.ts), as a built-in scenario's do; with it
 * off, in this process. It records through the one run driver and the
 * history, like any scenario (word-run.ts's `driveTestRun`).
 */
import { frozenOptions } from '../../src/core/flag-spec.js';
import type { RunRecordOf } from '../../src/core/results.js';
import { isolatedOf, registerScenario } from '../../src/scenarios/scenario-registry.js';
import { echoLaunch, type EchoResult } from './echo-child-job.js';
import { driveTestRun } from './word-run.js';

export const ECHO_ISOLATED = 'echo-isolated';

export interface EchoIsolatedCell extends EchoResult {
  readonly state: 'completed' | 'failed';
  readonly engine: string;
  readonly model: string;
  readonly batchSize: number;
  readonly requestedThreads: number | null;
}
export type EchoIsolatedRecord = RunRecordOf<EchoIsolatedCell> & { readonly kind: typeof ECHO_ISOLATED };
export interface EchoIsolatedConfig {
  readonly command: typeof ECHO_ISOLATED;
  readonly out: string;
  readonly words: readonly string[];
  /** A word the child fails on: its cell is recorded as failed with the reason, and the sweep goes on. */
  readonly crashOn: string | null;
  readonly isolate: boolean;
}

const cellOf = (result: EchoResult): EchoIsolatedCell => ({ ...result, state: result.echoed === null ? 'failed' : 'completed', engine: 'echo-engine', model: 'echo-model', batchSize: 1, requestedThreads: null });

registerScenario<EchoIsolatedRecord, EchoIsolatedConfig>({
  command: ECHO_ISOLATED,
  recordKind: ECHO_ISOLATED,
  options: frozenOptions({ summary: 'echo each word in an isolated child (a scenario defined in a test helper)', usage: `inferbench ${ECHO_ISOLATED}`, flags: [] }),
  // The module that registers the child job kind its launches name: the whole of what isolation asks of a scenario.
  childModule: new URL('./echo-child-job.js', import.meta.url).href,
  modelsAsked: () => ['echo-model'],
  settingLines: (c) => [`  words:        ${c.words.join(', ')}`],
  report: (r) => r.cells.map((c) => `${c.word}=${c.echoed ?? c.reason ?? ''}`).join(' '),
  views: (r) => ({ cells: r.cells.length }),
  execute: (config, hooks) =>
    driveTestRun<EchoIsolatedCell, typeof ECHO_ISOLATED>(ECHO_ISOLATED, config, hooks, async (_engines, record) => {
      if (!config.isolate) {
        for (const word of config.words) await record(cellOf(word === config.crashOn ? { word, echoed: null, pid: process.pid, reason: 'crashed' } : { word, echoed: word.toUpperCase(), pid: process.pid }));
        return;
      }
      // The launch names no module: the history's recorder gives the isolated launcher, told the registration's module.
      await isolatedOf(hooks)(echoLaunch({ words: config.words, crashOn: config.crashOn }, null), { onStart: () => undefined, onResult: (result) => record(cellOf(result)) }, hooks.signal);
    }),
});
