/**
 * The run a test-defined scenario records: it "measures" the length of each
 * word it is given, through the one run driver and the history, as a
 * built-in scenario's run goes. Shared by the tests that prove a scenario
 * defined outside src/ is served by the CLI and the dashboard
 * (test/dashboard/scenario-registry-plugin, test/cli/scenario-dispatch-plugin),
 * and, through `recordTestRun`, by the scenario that runs isolated
 * (test/helpers/echo-isolated-scenario.ts).
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { defaultRegistry } from '../../engines/registry.js';
import type { RunRecordOf } from '../../src/core/results.js';
import type { StoredConfig } from '../../src/runs/history/history-entry.js';
import { recordRun, type RecordedOutcome, type RecordOptions } from '../../src/runs/history/recorded-run.js';
import { driveRun, type ScenarioRun } from '../../src/scenarios/run-driver.js';
import type { StoredRunHooks } from '../../src/runs/scenario-registry.js';

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

/** Records one run of `kind`: a cell per word on the first engine, with cell progress told to `hooks`. */
export function executeWordRun<K extends string>(kind: K, model: string, config: WordRunConfig, hooks: StoredRunHooks, opts: RecordOptions): Promise<RecordedOutcome<WordRecord<K>>> {
  return recordTestRun<WordCell, K>(kind, config, opts, async (engines, record) => {
    const total = config.words.length;
    for (const [index, word] of config.words.entries()) {
      hooks.onCell({ kind: 'cell-start', total, engine: engines[0] ?? 'none', batchSize: 1 });
      await record({ state: 'completed', engine: engines[0] ?? 'none', model, batchSize: 1, requestedThreads: null, word, length: word.length });
      hooks.onCell({ kind: 'cell-done', total, index });
    }
  });
}

/**
 * Records one run of a test-defined scenario of `kind` through the one run
 * driver and the history, its record written as results.json: the part
 * every test scenario's run shares, whatever its cells (the word run's
 * above; echo-isolated-scenario.ts's, measured in a child).
 */
export function recordTestRun<C extends { readonly state: string }, K extends string>(
  kind: K,
  config: { readonly out: string; readonly engines?: readonly string[] },
  opts: RecordOptions,
  sweep: ScenarioRun<C, RunRecordOf<C> & { readonly kind: K }>['sweep'],
): Promise<RecordedOutcome<RunRecordOf<C> & { readonly kind: K }>> {
  return recordRun<C, RunRecordOf<C> & { readonly kind: K }, { total: number }>(config as unknown as StoredConfig, config.out, {}, opts, (recorded) =>
    driveRun<C, RunRecordOf<C> & { readonly kind: K }>(
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
      recorded,
    ),
  );
}
