/**
 * One `inferbench generate` run from a plain-JSON config: check inputs, load
 * the model, sweep, save after every cell, write the final files. Input
 * mistakes fail before anything is measured; an abort keeps every measured
 * cell.
 */
import { driveRun, type RunOutcome } from '../run-driver.js';
import { isolatedOf, type ScenarioRunHooks } from '../scenario-registry.js';
import { generateChildRunner } from './generate-child-job.js';
import { prepareOutputFolder } from '../../core/output-folder.js';
import { UserError } from '../../core/errors.js';
import { defaultGenerator } from '../../models/default-generator.js';
import { resolveColumns, textOf } from '../../../datasets/columns.js';
import { openDataset, EMBEDDED_DATASET_NAME } from '../../../datasets/open-dataset.js';
import { writeGenerationFiles } from './generation-files.js';
import type { GenerationCell, GenerationRunRecord } from './generation-results.js';
import { resolveGenerationSweep, runGenerationSweep, type GenerationProgress } from './generation-sweep.js';
import { TextGeneration } from '../../models/text-generation.js';
import { DEFAULT_OUT_DIR } from '../../core/output-folder.js';
import { standaloneRegistry } from '../../models/standalone-registry.js';

/** Everything that defines a generation run, resolved, as results.json records it. */
export interface GenerateConfig {
  /** Model folder; null means the embedded default decoder. */
  readonly model: string | null;
  /** Engines; null means every engine available here. */
  readonly engines: readonly string[] | null;
  readonly batchSizes?: readonly number[];
  readonly promptLengths?: readonly number[];
  readonly newTokens?: readonly number[];
  /** Measured calls per cell in each round. */
  readonly runs?: number;
  /** Rounds per cell, each a fresh engine open (default 3, as `run`). */
  readonly rounds?: number;
  readonly warmupRuns?: number;
  readonly threads: number | null;
  /** Prompts dataset; null means the embedded default prompts. */
  readonly dataset: string | null;
  readonly textColumn: string | null;
  /** Prompt texts read from the dataset (cycled when a sweep needs more). */
  readonly promptLimit: number;
  /** minNewTokens = maxNewTokens (default true). */
  readonly fixedLength: boolean;
  readonly out: string;
  readonly png: boolean;
  /** Each engine open in its own child process (default true). */
  readonly isolate?: boolean;
}

/** The replayable config of an `inferbench generate` entry; `command` tells it from a `run` config. */
export type StoredGenerateConfig = GenerateConfig & { readonly command: 'generate' };

export const DEFAULT_PROMPT_LIMIT = 256;

/** What a generate run is given by its caller: the driver's hooks, the engines, its progress events and the isolated launcher (see ScenarioRunHooks). */
export type GenerateHooks = ScenarioRunHooks<GenerationRunRecord, GenerationProgress>;

/** What an `inferbench generate` run produced. */
export type GenerateOutcome = RunOutcome<GenerationRunRecord>;

/** Reads up to `limit` non-empty prompt texts. */
async function readPrompts(config: GenerateConfig): Promise<{ texts: string[]; name: string }> {
  const dataset = await openDataset(config.dataset ?? undefined);
  const columns = resolveColumns(await dataset.columns(), { text: config.textColumn ?? undefined });
  const texts: string[] = [];
  let index = 0;
  for await (const row of dataset) {
    const text = textOf(row, columns.text, index++).trim();
    if (text !== '') texts.push(text);
    if (texts.length >= config.promptLimit) break;
  }
  if (texts.length === 0) throw new UserError(`dataset ${dataset.name} has no non-empty text in column "${columns.text}"`, 'pass a prompts dataset with text, or --text-column naming the column that has it');
  return { texts, name: config.dataset ?? `embedded default prompts (${EMBEDDED_DATASET_NAME})` };
}

/**
 * Runs the generation benchmark described by `config` through the run
 * driver; each engine's cells run in a fresh child process unless
 * `isolate` is false.
 */
export async function executeGenerate(config: GenerateConfig, hooks: GenerateHooks = {}): Promise<GenerateOutcome> {
  // First of all, so a folder that cannot be written fails at once rather than after the model open.
  await prepareOutputFolder(config.out);
  const registry = hooks.registry ?? standaloneRegistry();
  const requested = config.engines ? registry.parseNames(config.engines, '--engines') : null;
  const prompts = await readPrompts(config);
  const model = config.model ? await new TextGeneration(config.model).init() : await defaultGenerator();
  const sweep = resolveGenerationSweep(config, model.contextLength, {
    batchSizes: '--batch-sizes',
    promptLengths: '--prompt-lengths',
    newTokens: '--new-tokens',
    runs: '--runs',
    rounds: '--rounds',
  });
  const isolate = config.isolate ?? true;
  return driveRun<GenerationCell, GenerationRunRecord>(
    {
      kind: 'generate',
      out: config.out,
      png: config.png,
      registry,
      engines: requested,
      models: [await model.info()],
      recordedConfig: (engines, unavailableEngines) => ({
        ...config,
        ...sweep,
        isolate,
        command: 'generate',
        modelResolved: model.dir,
        enginesResolved: engines,
        unavailableEngines,
        datasetResolved: prompts.name,
        promptTexts: prompts.texts.length,
      }),
      sweep: async (engines, record) => {
        await runGenerationSweep(model, {
          ...sweep,
          engines,
          threads: config.threads,
          texts: prompts.texts,
          registry,
          ...(isolate ? { runGroup: generateChildRunner({ modelDir: config.model === null ? null : model.dir }, isolatedOf(hooks)) } : {}),
          ...(hooks.signal ? { signal: hooks.signal } : {}),
          ...(hooks.onProgress ? { onProgress: hooks.onProgress } : {}),
          onCell: (cell) => record(cell),
        });
      },
      write: (record, dir, options) => writeGenerationFiles(record, dir, options),
    },
    hooks,
  );
}

/** A config with the defaults filled in, for callers that build one from flags. */
export function generateConfig(partial: Partial<GenerateConfig>): GenerateConfig {
  return {
    model: partial.model ?? null,
    engines: partial.engines ?? null,
    ...(partial.batchSizes ? { batchSizes: partial.batchSizes } : {}),
    ...(partial.promptLengths ? { promptLengths: partial.promptLengths } : {}),
    ...(partial.newTokens ? { newTokens: partial.newTokens } : {}),
    ...(partial.runs !== undefined ? { runs: partial.runs } : {}),
    ...(partial.rounds !== undefined ? { rounds: partial.rounds } : {}),
    ...(partial.warmupRuns !== undefined ? { warmupRuns: partial.warmupRuns } : {}),
    threads: partial.threads ?? null,
    dataset: partial.dataset ?? null,
    textColumn: partial.textColumn ?? null,
    promptLimit: partial.promptLimit ?? DEFAULT_PROMPT_LIMIT,
    fixedLength: partial.fixedLength ?? true,
    out: partial.out ?? DEFAULT_OUT_DIR,
    png: partial.png ?? true,
    isolate: partial.isolate ?? true,
  };
}
