/**
 * The generate, train and load runs as the public API offers them
 * (src/index.ts): each scenario's run given the built-in launchers, since a
 * scenario's run is handed its launchers by its caller and a library user
 * should not have to. They record nothing in the history; for that, use
 * `executeRecorded(SCENARIO, config, hooks, opts)` (./history/recorded-run.ts).
 */
import { executeGenerate as runGenerate, type GenerateConfig, type GenerateHooks, type GenerateOutcome } from '../scenarios/generate/generate-run.js';
import { executeTrain as runTrain, type TrainConfig, type TrainHooks, type TrainOutcome } from '../scenarios/train/train-run.js';
import { executeLoad as runLoad, type LoadConfig, type LoadHooks, type LoadOutcome } from '../scenarios/load/load-run.js';
import { GENERATE_SCENARIO } from '../scenarios/generate/generate-scenario.js';
import { TRAIN_SCENARIO } from '../scenarios/train/train-scenario.js';
import { LOAD_SCENARIO } from '../scenarios/load/load-scenario.js';
import type { RangeAudience } from '../core/option-ranges.js';
import { withBuiltinLaunchers } from './builtin-launchers.js';

/** `inferbench generate` from a config, each engine's cells in a fresh child process unless `isolate` is false. */
export function executeGenerate(config: GenerateConfig, hooks: GenerateHooks = {}): Promise<GenerateOutcome> {
  return runGenerate(config, withBuiltinLaunchers(GENERATE_SCENARIO, hooks));
}

/** `inferbench train` from a config; `audience` names options as flags or JSON fields in its errors. */
export function executeTrain(config: TrainConfig, hooks: TrainHooks = {}, audience: RangeAudience = 'field'): Promise<TrainOutcome> {
  return runTrain(config, withBuiltinLaunchers(TRAIN_SCENARIO, hooks), audience);
}

/** `inferbench load` from a config; `audience` names options as flags or JSON fields in its errors. */
export function executeLoad(config: LoadConfig, hooks: LoadHooks = {}, audience: RangeAudience = 'field'): Promise<LoadOutcome> {
  return runLoad(config, withBuiltinLaunchers(LOAD_SCENARIO, hooks), audience);
}
