/**
 * `inferbench train`'s part of the dashboard's API: no request starts one
 * (the form has no train settings), but a train entry of the history can be
 * rerun. Loaded by the dashboard only when a rerun comes (see
 * ../scenario-registry.ts `api`).
 */
import { recheckModelPaths } from '../request-fields.js';
import { checkTrainConfig, trainConfig, type TrainConfig } from '../train-run.js';
import type { RequestContext, ScenarioApi } from '../scenario-registry.js';

/** A stored train config written here, checked as a new one is. */
function resolveStored(config: TrainConfig, ctx: RequestContext): TrainConfig {
  const train = trainConfig({ ...config, out: ctx.out });
  checkTrainConfig(train);
  return train;
}

export const TRAIN_API: ScenarioApi<TrainConfig> = { start: null, recheckPaths: recheckModelPaths, resolveStored };
