/**
 * POST /api/load: an `inferbench load` run from JSON, validated by the same
 * code as the CLI (LoadConfig's field names, the OPTION_RANGES table,
 * checkLoadConfig, the latency-goal parser), with every path through the
 * PathGuard. Throws FieldError naming the field.
 */
import { UserError } from '../core/errors.js';
import { parseLatencyGoal } from '../core/latency-goal.js';
import { checkLoadConfig, loadConfig, type LoadConfig } from '../runs/load-run.js';
import { defaultRegistry } from '../../engines/registry.js';
import { FieldError } from './field-error.js';
import { checkLoadCaps } from './request-caps.js';
import { asField, checkFieldRanges, checkFields, type Ctx, type Kind, type RunRequest } from './run-request.js';

/** The fields of a load request: `inferbench load`'s options under LoadConfig's names (`--duration` is `durationMs`, in ms). */
const LOAD_FIELDS: ReadonlyMap<string, Kind> = new Map<string, Kind>([
  ['models', 'models'],
  ['engines', 'names'],
  ['threads', 'intOrNull'],
  ['dataset', 'path'],
  ['textColumn', 'name'],
  ['limit', 'int'],
  ['rates', 'numbers'],
  ['findPeak', 'boolean'],
  ['arrival', 'name'],
  ['burstiness', 'number'],
  ['seed', 'int'],
  ['durationMs', 'number'],
  ['minQueries', 'int'],
  ['warmupMs', 'number'],
  ['maxBatch', 'intOrNull'],
  ['maxWaitMs', 'intOrNull'],
  ['slo', 'name'],
  ['rounds', 'int'],
  ['isolate', 'boolean'],
  ['png', 'boolean'],
  ['compareWith', 'id'],
]);

/** Validates a load request with the same code as `inferbench load`. */
export function parseLoadRequest(body: unknown, ctx: Ctx): RunRequest {
  const { fields, compareWith } = checkFields(body, LOAD_FIELDS, 'load');
  checkFieldRanges(fields);
  const { slo, models, dataset, ...rest } = fields as Partial<Record<keyof LoadConfig, unknown>>;
  const goal = typeof slo === 'string' ? asField('slo', () => parseLatencyGoal(slo, 'slo')) : null;
  const config = loadConfig({
    ...(rest as Partial<LoadConfig>),
    models: Array.isArray(models) ? models.map((m, i) => ctx.guard.checkModel(`models[${i}]`, String(m))) : [],
    dataset: typeof dataset === 'string' ? ctx.guard.check('dataset', dataset) : null,
    slo: goal,
    out: ctx.out,
  });
  const engines = config.engines;
  const registry = ctx.registry ?? defaultRegistry;
  if (engines) asField('engines', () => registry.parseNames(engines, 'engines'));
  try {
    checkLoadConfig(config, 'field');
  } catch (err) {
    if (err instanceof UserError) {
      const field = [...LOAD_FIELDS.keys()].find((f) => err.message.startsWith(`${f} `)) ?? 'body';
      throw new FieldError(field, err.message, err.fix);
    }
    throw err;
  }
  checkLoadCaps(config, engines?.length ?? registry.ids().length);
  return { config, compareWith };
}
