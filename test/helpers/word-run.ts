/**
 * The run a test-defined scenario records: it "measures" the length of each
 * word it is given, through the one run driver and the history, as a
 * built-in scenario's run goes. Shared by the tests that prove a scenario
 * defined outside src/ is served by the CLI and the dashboard
 * (test/dashboard/scenario-registry-plugin, test/cli/scenario-dispatch-plugin),
 * and, through `driveTestRun`, by the scenario that runs isolated
 * (test/helpers/echo-isolated-scenario.ts).
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { defaultRegistry } from '../../engines/registry.js';
import type { RunRecordOf } from '../../src/core/results.js';
import { driveRun, type RunOutcome, type ScenarioRun } from '../../src/scenarios/run-driver.js';
import type { ScenarioProgress, ScenarioRunHooks } from '../../src/scenarios/scenario-registry.js';

/** One word's cell. */
export interface WordCell {
  readonly state: 'completed';
  readonly engine: string;
  readonly model: string;
  readonly batchSize: number;
  readonly requestedThreads: number | null;
  readonly word: string;
  readonly length: number;
}

/** A word run's record, of the scenario's own kind. */
export type WordRecord<K extends string> = RunRecordOf<WordCell> & { readonly kind: K };

/** What a word run needs of its scenario's config. */
export interface WordRunConfig {
  readonly out: string;
  readonly words: readonly string[];
  readonly engines?: readonly string[];
}

/** A scenario's `execute` for a word run of `kind`: a cell per word on the first engine, with cell progress told to `hooks`. */
export function executeWordRun<K extends string>(kind: K, model: string, config: WordRunConfig, hooks: ScenarioRunHooks<WordRecord<K>, ScenarioProgress>): Promise<RunOutcome<WordRecord<K>>> {
  return driveTestRun<WordCell, K>(kind, config, hooks, async (engines, record) => {
    const total = config.words.length;
    for (const [index, word] of config.words.entries()) {
      hooks.onProgress?.({ kind: 'cell-start', total, engine: engines[0] ?? 'none', batchSize: 1 } as ScenarioProgress);
      await record({ state: 'completed', engine: engines[0] ?? 'none', model, batchSize: 1, requestedThreads: null, word, length: word.length });
      hooks.onProgress?.({ kind: 'cell-done', total, index } as ScenarioProgress);
    }
  });
}

/**
 * One run of a test-defined scenario of `kind` through the one run driver,
 * its record written as results.json: the part every test scenario's run
 * shares, whatever its cells (the word run's above;
 * echo-isolated-scenario.ts's, measured in a child). The history records it
 * as any scenario's (src/runs/history/recorded-run.ts `executeRecorded`).
 */
export function driveTestRun<C extends { readonly state: string }, K extends string>(
  kind: K,
  config: { readonly out: string; readonly engines?: readonly string[] },
  hooks: ScenarioRunHooks<RunRecordOf<C> & { readonly kind: K }, ScenarioProgress>,
  sweep: ScenarioRun<C, RunRecordOf<C> & { readonly kind: K }>['sweep'],
): Promise<RunOutcome<RunRecordOf<C> & { readonly kind: K }>> {
  return driveRun<C, RunRecordOf<C> & { readonly kind: K }>(
    {
      kind,
      out: config.out,
      png: false,
      registry: defaultRegistry,
      // The run driver selects engines; a test scenario that uses none still names one that is always there.
      engines: config.engines ?? ['onnx-cpu'],
      recordedConfig: (engines) => ({ ...config, enginesResolved: engines }),
      models: [],
      sweep,
      write: async (record, dir) => {
        const file = join(dir, 'results.json');
        await writeFile(file, JSON.stringify(record));
        return { paths: [file], warnings: [] };
      },
    },
    hooks,
  );
}
