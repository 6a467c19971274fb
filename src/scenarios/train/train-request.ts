/**
 * `POST /api/train`: an `inferbench train` run from JSON, validated by the
 * same code as the CLI (TrainConfig's field names, the OPTION_RANGES table,
 * checkTrainConfig, the architecture parser), with every path through the
 * dashboard's guard, and capped (../request-caps.ts). The form has no train
 * settings; the API takes every option the CLI takes (issue 47), and a train
 * entry of the history is rerun through resolveStored. Loaded by the
 * dashboard only when a request comes (see ../scenario-registry.ts `api`).
 */
import { UserError } from '../../core/errors.js';
import { FieldError } from '../../core/field-error.js';
import { parseArchitectures } from '../../models/generated/arch-parse.js';
import { TRAIN_OPTIONS } from './train-options.js';
import { checkRunCells } from '../request-caps.js';
import { asField, checkFieldRanges, enginesWithOptionFields, recheckModelPaths, requestFieldKinds, type RequestField } from '../request-fields.js';
import { checkTrainConfig, trainConfig, type TrainConfig } from './train-run.js';
import type { RequestContext, ScenarioApi } from '../scenario-registry.js';

/**
 * The request's fields: `train`'s flags under TrainConfig's names, spelled
 * out where the name or kind is not the flag's (`models` is the repeated
 * `--model`, `architectures` the repeated `--config`, `threads` one count or
 * null for the engine default).
 */
const FIELDS: readonly RequestField[] = [
  { field: 'models', kind: 'models', flags: ['model'] },
  { field: 'architectures', kind: 'architectures', flags: ['config'] },
  'engines',
  { field: 'engineOptions', kind: 'names', flags: ['engine-options'] },
  'batch-sizes',
  'sequence-lengths',
  'steps',
  'warm-steps',
  'optimizer',
  'learning-rate',
  { field: 'dataset', kind: 'path', flags: ['dataset'] },
  'text-column',
  'label-column',
  'rounds',
  { field: 'threads', kind: 'intOrNull', flags: ['threads'] },
  'no-png',
  'no-isolate',
];

function parse(fields: Readonly<Record<string, unknown>>, ctx: RequestContext): TrainConfig {
  checkFieldRanges(fields);
  const registry = ctx.registry;
  const { models, architectures, dataset, engineOptions: _, ...rest } = fields as Partial<Record<keyof TrainConfig | 'engineOptions', unknown>>;
  // A spec naming a JSON file is read from disk, so it is a path like any other.
  const specs = Array.isArray(architectures) ? architectures.map((a, i) => (/\.json$/i.test(String(a).trim()) ? ctx.guard.check(`architectures[${i}]`, String(a)) : String(a))) : [];
  const config = trainConfig({
    ...(rest as Partial<TrainConfig>),
    models: Array.isArray(models) ? models.map((m, i) => ctx.guard.checkModel(`models[${i}]`, String(m))) : [],
    architectures: asField('architectures', () => parseArchitectures(specs, 'architectures')),
    engines: enginesWithOptionFields(fields, registry),
    dataset: typeof dataset === 'string' ? ctx.guard.check('dataset', dataset) : null,
    out: ctx.out,
  });
  try {
    checkTrainConfig(config, 'field');
  } catch (err) {
    if (err instanceof UserError) {
      const field = [...requestFieldKinds(TRAIN_OPTIONS, FIELDS).keys()].find((f) => err.message.startsWith(`${f} `) || err.message.includes(` ${f} `)) ?? 'body';
      throw new FieldError(field, err.message, err.fix);
    }
    throw err;
  }
  const sources = Math.max(config.models.length + config.architectures.length, 1);
  checkRunCells(sources * Math.max(config.engines?.length ?? registry.listedIds().length, 1) * config.batchSizes.length * Math.max(config.sequenceLengths?.length ?? 1, 1));
  return config;
}

/** A stored train config written here, checked as a new one is. */
function resolveStored(config: TrainConfig, ctx: RequestContext): TrainConfig {
  const train = trainConfig({ ...config, out: ctx.out });
  checkTrainConfig(train);
  return train;
}

export const TRAIN_API: ScenarioApi<TrainConfig> = { start: { fields: FIELDS, parse }, recheckPaths: recheckModelPaths, resolveStored };
