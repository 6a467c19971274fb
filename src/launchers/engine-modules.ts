import { existsSync } from 'node:fs';
import { isAbsolute, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Engine } from '../core/engine.js';
import { type EngineRegistry } from '../core/engine-registry.js';
import { describeError, UserError } from '../core/errors.js';

/**
 * Registers the engines that plug-in modules export as `engines`, and notes
 * each module in the registry (`engineModules()`). A module path (unlike an
 * Engine object) can be sent to an isolated child process, so plug-in and
 * test engines work with isolation too. Importing the module is also what
 * registers a format of its own (core/model-formats.ts), here and in the
 * child.
 */
export async function registerEngineModules(paths: readonly string[], registry: EngineRegistry): Promise<void> {
  const fix = 'pass --engine-module the path of a JavaScript module that exports `engines` (an array of Engine objects)';
  for (const p of paths) {
    const path = isAbsolute(p) ? p : resolve(p);
    if (!existsSync(path)) throw new UserError(`engine module ${path} does not exist`, fix);
    let mod: { engines?: unknown };
    try {
      mod = (await import(pathToFileURL(path).href)) as { engines?: unknown };
    } catch (err) {
      throw new UserError(`engine module ${path} could not be loaded: ${describeError(err)}`, fix);
    }
    if (!Array.isArray(mod.engines)) throw new UserError(`engine module ${path} exports no \`engines\` array`, 'export const engines: Engine[] = [...]');
    for (const e of mod.engines as Engine[]) registry.register(e);
    registry.addEngineModule(path);
  }
}
