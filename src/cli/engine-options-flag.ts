/**
 * `--engine-options` for the commands whose configs hold engine ids only
 * (`generate`, `train`, `load`): each engine given options is replaced in
 * `--engines` by its variants (`onnx-cpu [graphOptimizationLevel=disabled]`),
 * which the registry loads with those options, so the stored config replays
 * them on a rerun. `run` keeps the flag in its config (resolve-run-config.ts).
 */
import type { EngineRegistry } from '../core/engine-registry.js';
import { expandEngineVariants } from '../core/engine-options.js';
import { UserError } from '../core/errors.js';
import { listFlag, repeatedFlag, type ParsedArgs } from './args.js';

/** `--engines` with `--engine-options` applied; null (every engine) when neither is given. */
export function enginesWithOptions(args: ParsedArgs, registry: EngineRegistry): string[] | null {
  const engines = listFlag(args, 'engines') ?? null;
  const specs = repeatedFlag(args, 'engine-options') ?? [];
  if (specs.length === 0) return engines;
  if (engines === null) throw new UserError('--engine-options needs --engines: options apply to the engines a command names', 'add --engines with the engine of each --engine-options');
  return expandEngineVariants(registry.parseNames(engines), specs);
}
