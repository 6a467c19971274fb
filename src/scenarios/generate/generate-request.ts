/**
 * `POST /api/generate`: an `inferbench generate` run from JSON, validated
 * with the same code as the CLI (generateConfig, the OPTION_RANGES table,
 * resolveGenerationSweep). Loaded by the dashboard only when a request
 * comes (see ../scenario-registry.ts `api`).
 */
import { resolveGenerationSweep } from './generation-sweep.js';
import { generateConfig, type GenerateConfig, type StoredGenerateConfig } from './generate-run.js';
import { asField, checkFieldRanges, enginesWithOptionFields, type PathCheck } from '../request-fields.js';
import type { RequestContext, ScenarioApi } from '../scenario-registry.js';

function parse(fields: Readonly<Record<string, unknown>>, ctx: RequestContext): StoredGenerateConfig {
  const partial = { ...fields } as Partial<GenerateConfig>;
  const model = typeof partial.model === 'string' ? ctx.guard.checkModel('model', partial.model) : null;
  const dataset = typeof partial.dataset === 'string' ? ctx.guard.check('dataset', partial.dataset) : null;
  const engines = enginesWithOptionFields(fields, ctx.registry);
  const config = generateConfig({ ...partial, model, engines, dataset, out: ctx.out });
  // Ranges first, then each list alone through the CLI's resolver, so a mistake is reported against its own field (not "body").
  checkFieldRanges(fields);
  const names = { batchSizes: 'batchSizes', promptLengths: 'promptLengths', newTokens: 'newTokens', runs: 'runs', rounds: 'rounds' };
  for (const group of ['batchSizes', 'promptLengths', 'newTokens', 'runs', 'rounds', 'warmupRuns'] as const) {
    if (partial[group] !== undefined) asField(group, () => resolveGenerationSweep({ [group]: partial[group] }, Number.POSITIVE_INFINITY, names));
  }
  // The context length is the model's and is checked when the run starts; every other rule is the CLI's.
  asField('body', () => resolveGenerationSweep(config, Number.POSITIVE_INFINITY, names));
  return { ...config, command: 'generate' };
}

/** A generate config's model and dataset resolved again through the guard. */
function recheckPaths(config: GenerateConfig, guard: PathCheck): GenerateConfig {
  const model = config.model === null ? null : guard.checkModel('model', config.model);
  const dataset = config.dataset === null ? null : guard.check('dataset', config.dataset);
  return { ...config, model, dataset };
}

/**
 * The request's fields: `generate`'s flags under GenerateConfig's names,
 * spelled out where the kind is not the flag's (`--new-tokens 32` is a
 * list, `threads` one count or null) or the name is not
 * (`--allow-early-stop` is `fixedLength`, its opposite).
 */
export const GENERATE_API: ScenarioApi<GenerateConfig> = {
  start: {
    fields: [
      { field: 'model', kind: 'path', flags: ['model'] },
      'engines',
      { field: 'engineOptions', kind: 'names', flags: ['engine-options'] },
      'batch-sizes',
      'prompt-lengths',
      { field: 'newTokens', kind: 'ints', flags: ['new-tokens'] },
      'runs',
      // Listed in docs/dashboard.md and parsed below since the API began, but missing here until 2026-11-28: a request with rounds was refused as an unknown field.
      'rounds',
      'warmup',
      { field: 'threads', kind: 'intOrNull', flags: ['threads'] },
      { field: 'dataset', kind: 'path', flags: ['dataset'] },
      'text-column',
      'limit',
      { field: 'fixedLength', kind: 'boolean', flags: ['allow-early-stop'] },
      'no-isolate',
      'no-png',
    ],
    parse,
  },
  recheckPaths,
  resolveStored: (config, ctx): StoredGenerateConfig => ({ ...generateConfig({ ...config, out: ctx.out }), command: 'generate' }),
};
