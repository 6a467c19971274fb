/**
 * `--scenario-module PATH`, which every command takes: the module of a
 * scenario that is not built in (a plug-in's, a test's), imported before
 * the command word is looked up, so its `registerScenario` call makes
 * `inferbench <its command>`, `rerun`, `list`, `show`, `serve` and
 * `worker` know it as they know a built-in (the scenario's queue job kind
 * and runner register at the same import; its isolated children import
 * the module its registration names themselves). Taken out of the argv
 * before any command parses its flags, as the command it belongs to is
 * not known until it is imported.
 */
import { existsSync } from 'node:fs';
import { isAbsolute, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describeError, UserError } from '../core/errors.js';
import { registeredScenarios } from '../scenarios/scenario-registry.js';

const FLAG = '--scenario-module';
const FIX = 'pass --scenario-module the path of a JavaScript module that calls registerScenario (see "Adding a scenario" in docs/development.md)';

/** The argv without its `--scenario-module PATH` (or `--scenario-module=PATH`) pairs, and those paths in order. */
export function takeScenarioModules(argv: readonly string[]): { readonly argv: string[]; readonly modules: string[] } {
  const rest: string[] = [];
  const modules: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] as string;
    if (arg.startsWith(`${FLAG}=`)) modules.push(arg.slice(FLAG.length + 1));
    else if (arg === FLAG) {
      const path = argv[i + 1];
      if (path === undefined || path.startsWith('--')) throw new UserError(`${FLAG} needs a value`, FIX);
      modules.push(path);
      i++;
    } else rest.push(arg);
  }
  return { argv: rest, modules };
}

/** Modules this process imported already (a second import would register nothing), by absolute path. */
const imported = new Set<string>();

/** Imports each scenario module; a missing or broken one, or one that registers no scenario, is a user error naming it. */
export async function registerScenarioModules(paths: readonly string[]): Promise<void> {
  for (const p of paths) {
    const path = isAbsolute(p) ? p : resolve(p);
    if (!existsSync(path)) throw new UserError(`scenario module ${path} does not exist`, FIX);
    if (imported.has(path)) continue;
    const before = registeredScenarios().length;
    try {
      await import(pathToFileURL(path).href);
    } catch (err) {
      throw new UserError(`scenario module ${path} could not be loaded: ${describeError(err)}`, FIX);
    }
    imported.add(path);
    if (registeredScenarios().length === before) throw new UserError(`scenario module ${path} registered no scenario`, FIX);
  }
}
