import { isGenerateConfig, isLoadConfig, isTrainConfig, type StoredConfig } from '../runs/history/history-entry.js';
import type { PathGuard } from './path-guard.js';

/**
 * The config with every model and dataset path resolved again through the
 * guard, when the run starts rather than when it was queued. Between the
 * two, a folder inside --root can be swapped for a symlink to a folder
 * outside it; checking only at queue time let the run read the outside
 * file (and its error messages reveal its column names). The returned
 * config carries the real paths just checked, so the run opens exactly
 * what was allowed. Throws the guard's FieldError otherwise.
 */
export function recheckRunPaths(config: StoredConfig, guard: PathGuard): StoredConfig {
  if (isTrainConfig(config) || isLoadConfig(config)) {
    return { ...config, models: config.models.map((m) => guard.checkModel('model', m)), dataset: config.dataset === null ? null : guard.check('dataset', config.dataset) };
  }
  const model = config.model === null ? null : guard.checkModel('model', config.model);
  const dataset = config.dataset === null ? null : guard.check('dataset', config.dataset);
  if (isGenerateConfig(config)) return { ...config, model, dataset };
  return { ...config, model, models: config.models.map((m) => guard.checkModel('model', m)), dataset };
}
