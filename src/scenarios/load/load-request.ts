/**
 * `POST /api/load`: an `inferbench load` run from JSON, validated by the
 * same code as the CLI (LoadConfig's field names, the OPTION_RANGES table,
 * checkLoadConfig, the latency-goal parser), with every path through the
 * dashboard's guard, and capped (./load-caps.ts). Loaded by the
 * dashboard only when a request comes (see ../scenario-registry.ts `api`).
 */
import { UserError } from '../../core/errors.js';
import { FieldError } from '../../core/field-error.js';
import { parseLatencyGoal } from './latency-goal.js';
import { LOAD_OPTIONS } from './load-options.js';
import { checkLoadConfig, loadConfig, type LoadConfig } from './load-run.js';
import { checkLoadCaps } from './load-caps.js';
import { asField, checkFieldRanges, enginesWithOptionFields, recheckModelPaths, requestFieldKinds, type RequestField } from '../request-fields.js';
import type { RequestContext, ScenarioApi } from '../scenario-registry.js';

/**
 * The request's fields: `load`'s flags under LoadConfig's names (`--duration`
 * is `durationMs`, in ms), spelled out where the name or kind is not the
 * flag's (`models` is the repeated `--model`; the batcher's limits and
 * `threads` may be null for the default).
 */
const FIELDS: readonly RequestField[] = [
  { field: 'models', kind: 'models', flags: ['model'] },
  'engines',
  { field: 'engineOptions', kind: 'names', flags: ['engine-options'] },
  { field: 'threads', kind: 'intOrNull', flags: ['threads'] },
  { field: 'dataset', kind: 'path', flags: ['dataset'] },
  'text-column',
  'limit',
  'rates',
  'find-peak',
  'arrival',
  'burstiness',
  'seed',
  'duration',
  'min-queries',
  'warmup',
  { field: 'maxBatch', kind: 'intOrNull', flags: ['max-batch'] },
  { field: 'maxWaitMs', kind: 'intOrNull', flags: ['max-wait'] },
  'slo',
  'rounds',
  'no-isolate',
  'no-png',
];

function parse(fields: Readonly<Record<string, unknown>>, ctx: RequestContext): LoadConfig {
  checkFieldRanges(fields);
  const registry = ctx.registry;
  const { slo, models, dataset, engineOptions: _, ...rest } = fields as Partial<Record<keyof LoadConfig | 'engineOptions', unknown>>;
  const goal = typeof slo === 'string' ? asField('slo', () => parseLatencyGoal(slo, 'slo')) : null;
  const config = loadConfig({
    ...(rest as Partial<LoadConfig>),
    models: Array.isArray(models) ? models.map((m, i) => ctx.guard.checkModel(`models[${i}]`, String(m))) : [],
    dataset: typeof dataset === 'string' ? ctx.guard.check('dataset', dataset) : null,
    engines: enginesWithOptionFields(fields, registry),
    slo: goal,
    out: ctx.out,
  });
  const engines = config.engines;
  try {
    checkLoadConfig(config, 'field');
  } catch (err) {
    if (err instanceof UserError) {
      const field = [...requestFieldKinds(LOAD_OPTIONS, FIELDS).keys()].find((f) => err.message.startsWith(`${f} `)) ?? 'body';
      throw new FieldError(field, err.message, err.fix);
    }
    throw err;
  }
  checkLoadCaps(config, engines?.length ?? registry.listedIds().length);
  return config;
}

/** A stored load config written here, checked as a new one is. */
function resolveStored(config: LoadConfig, ctx: RequestContext): LoadConfig {
  const load = loadConfig({ ...config, out: ctx.out });
  checkLoadConfig(load);
  return load;
}

export const LOAD_API: ScenarioApi<LoadConfig> = { start: { fields: FIELDS, parse }, recheckPaths: recheckModelPaths, resolveStored };
