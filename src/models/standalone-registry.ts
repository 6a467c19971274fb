/**
 * The engines a model used on its own finds an engine id among: the public
 * API's `model.exportToOnnx('cpu')`, `textGeneration.load('onnx-cpu')` and
 * `generate()` called with no registry. The program itself always passes
 * its registry down (from its entry points: the CLI, the dashboard server,
 * the child entry, src/index.ts), so nothing here is shared with it: this is
 * a registry of the built-in engines of its own, made on first use.
 */
import { BUILTIN_ENGINE_FACTORIES } from '../../engines/registry.js';
import { EngineRegistry } from '../core/engine-registry.js';

let registry: EngineRegistry | undefined;

/** The built-in engines' registry for a model used alone (made once per process). */
export function standaloneRegistry(): EngineRegistry {
  registry ??= new EngineRegistry(BUILTIN_ENGINE_FACTORIES);
  return registry;
}
