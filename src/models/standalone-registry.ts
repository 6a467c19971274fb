/**
 * The engines a public API call made with no registry finds an engine id
 * among: `textGeneration.open('onnx-cpu')` and `generate()`,
 * `model.exportToOnnx('cpu')`, `new Benchmark()`, `executeGenerate(config)`
 * and the like. The program itself always passes its registry down, from
 * its entry points (the CLI, the dashboard server, the child entry,
 * src/index.ts, which export the default one), so nothing here is shared
 * with it: this is a registry of the built-in engines of its own, made on
 * first use. A caller with engines of its own passes its registry.
 */
import { BUILTIN_ENGINE_FACTORIES } from '../../engines/registry.js';
import { EngineRegistry } from '../core/engine-registry.js';

let registry: EngineRegistry | undefined;

/** The built-in engines' registry for a model used alone (made once per process). */
export function standaloneRegistry(): EngineRegistry {
  registry ??= new EngineRegistry(BUILTIN_ENGINE_FACTORIES);
  return registry;
}
