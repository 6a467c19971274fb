/**
 * The built-in engines: one import per engine family, in the order tables
 * list them. Adding an engine touches its own folder and one line here.
 * Everything that needs the built-ins imports `defaultRegistry` from this
 * module, so loading it is what registers them.
 */
import './onnx/onnx-register.js';
import './tfjs/tfjs-register.js';
import './transformers-js/transformers-js-register.js';
import './browser/browser-register.js';
import { EngineRegistry, registeredEngineFactories, registeredEngineIds, type EngineFactory } from '../src/core/engine-registry.js';

/** Every built-in engine id, in table order. */
export const ENGINE_IDS: readonly string[] = Object.freeze(registeredEngineIds());

/** The built-in engines' factories by id. */
export const BUILTIN_ENGINE_FACTORIES: Readonly<Record<string, EngineFactory>> = registeredEngineFactories();

/** Parses a built-in engine id, or returns undefined so callers can list the valid ones. */
export function asEngineId(name: string): string | undefined {
  return ENGINE_IDS.includes(name) ? name : undefined;
}

/** The registry commands and models share unless given their own. */
export const defaultRegistry = new EngineRegistry();
