/**
 * `POST /api/runs`: an `inferbench run` from JSON, validated with the same
 * code as the CLI. Each option group is passed alone through
 * resolveRunConfig first, so a mistake is reported against its own field,
 * then the whole config is resolved. Loaded by the dashboard only when a
 * request comes (see ../scenario-registry.ts `api`).
 */
import { DEFAULT_PARITY_TOLERANCE } from '../core/parity.js';
import { resolveRunConfig, type OptionNames, type RunConfig } from './classify-run.js';
import { checkRunCells } from '../scenarios/request-caps.js';
import { runEngines } from './run-config.js';
import { asField, checkFieldRanges, type PathCheck } from '../scenarios/request-fields.js';
import type { RequestContext, ScenarioApi } from '../scenarios/scenario-registry.js';

/** Names resolveRunConfig puts in its messages, so they match the JSON fields. */
const NAMES: OptionNames = {
  batchSizes: 'batchSizes',
  limit: 'limit',
  threads: 'threads',
  engines: 'engines',
  browsers: 'browsers',
  engineOptions: 'engineOptions',
  reference: 'parity.reference',
  dtypes: 'dtypes',
  architectures: 'architectures',
  sequenceLengths: 'sequenceLengths',
  calibrationRows: 'calibrationRows',
  calibrationMethod: 'calibrationMethod',
};

function parse(fields: Readonly<Record<string, unknown>>, ctx: RequestContext): RunConfig {
  const partial = { ...fields } as Omit<Partial<RunConfig>, 'architectures' | 'calibrationMethod'> & { architectures?: string[]; calibrationMethod?: string };
  for (const group of ['batchSizes', 'threads', 'limit', 'warmupBatches', 'rounds', 'stop', 'maxCv', 'parity', 'engines', 'dtypes', 'sequenceLengths', 'calibrationRows', 'calibrationMethod'] as const) {
    if (partial[group] === undefined) continue;
    // Each group alone, with no parity reference unless it is the group: the default reference (onnx-cpu) is not in every registry, and its refusal is not this field's.
    asField(group, () => resolveRunConfig({ parity: { reference: null, tolerance: DEFAULT_PARITY_TOLERANCE }, [group]: partial[group] }, NAMES, ctx.registry));
  }
  checkFieldRanges(fields);
  const model = typeof partial.model === 'string' ? ctx.guard.checkModel('model', partial.model) : null;
  const models = partial.models?.map((m, i) => ctx.guard.checkModel(`models[${i}]`, m));
  const dataset = typeof partial.dataset === 'string' ? ctx.guard.check('dataset', partial.dataset) : null;
  // A spec naming a JSON file is read from disk, so it is a path like any other.
  const architectures = partial.architectures?.map((a, i) => (/\.json$/i.test(a.trim()) ? ctx.guard.check(`architectures[${i}]`, a) : a));
  if (architectures) asField('architectures', () => resolveRunConfig({ architectures }, NAMES, ctx.registry));
  const config = asField('body', () =>
    resolveRunConfig(
      { ...partial, model, ...(models ? { models } : {}), ...(architectures ? { architectures } : {}), dataset, out: ctx.out },
      NAMES,
      ctx.registry,
    ),
  );
  const count = (list: readonly unknown[] | null | undefined, otherwise = 1) => Math.max(list?.length ?? otherwise, 1);
  const sources = Math.max(config.models.length + config.architectures.length, 1);
  checkRunCells(sources * count(runEngines(config), ctx.registry.listedIds().length) * count(config.batchSizes) * count(config.threads) * count(config.sequenceLengths) * count(config.dtypes));
  return config;
}

/** A run config's model, models and dataset resolved again through the guard. */
function recheckPaths(config: RunConfig, guard: PathCheck): RunConfig {
  const model = config.model === null ? null : guard.checkModel('model', config.model);
  const dataset = config.dataset === null ? null : guard.check('dataset', config.dataset);
  return { ...config, model, models: config.models.map((m) => guard.checkModel('model', m)), dataset };
}

/**
 * The request's fields: the `run` flags under RunConfig's names, spelled
 * out where the name or JSON kind is not the flag's (`--dtype` is
 * `dtypes`, `--config` is `architectures`, `--min-time` is
 * `stop.minTimeMs` in ms, `--limit` may be null for every row). The output
 * folder is not one of them: the dashboard writes where it was started.
 */
export const CLASSIFY_API: ScenarioApi<RunConfig> = {
  start: {
    fields: [
      { field: 'model', kind: 'path', flags: ['model'] },
      { field: 'models', kind: 'models', flags: ['model'] },
      'revision',
      { field: 'dtypes', kind: 'names', flags: ['dtype'] },
      { field: 'architectures', kind: 'architectures', flags: ['config'] },
      'sequence-lengths',
      'engines',
      'browsers',
      { field: 'engineOptions', kind: 'names', flags: ['engine-options'] },
      'batch-sizes',
      { field: 'threads', kind: 'threads', flags: ['threads'] },
      { field: 'dataset', kind: 'path', flags: ['dataset'] },
      'dataset-config',
      'split',
      'text-column',
      'label-column',
      { field: 'limit', kind: 'intOrNull', flags: ['limit'] },
      'warmup',
      { field: 'rounds', kind: 'int', flags: ['rounds'] },
      { field: 'stop', kind: 'stop', flags: ['min-time', 'min-batches', 'max-time'] },
      'max-cv',
      { field: 'parity', kind: 'parity', flags: ['reference', 'tolerance'] },
      'no-isolate',
      'no-png',
      'calibration-rows',
      'calibration-method',
      'profile',
      // Every option the CLI takes, as the docs say: these two were refused as unknown fields (issue 47).
      'task',
      'save-outputs',
      'skip-bad-rows',
    ],
    parse,
  },
  recheckPaths,
  resolveStored: (config, ctx) => resolveRunConfig({ ...config, out: ctx.out }, NAMES, ctx.registry),
};
