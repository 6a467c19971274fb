/**
 * The scenarios' commands, looked up by the scenario's word: `main`
 * dispatches `inferbench <command>` and `rerun` repeats a stored config
 * through here, and neither names a scenario. Every scenario, built-in or
 * not, runs through the one path of scenario-cli.ts; a built-in's command
 * line (its flags, progress lines and report, src/scenarios/<name>/<name>-cli.ts)
 * is imported only when its command runs, so `--help`, `list` and `show`
 * load no engine, and a scenario registered anywhere else (a plug-in, a
 * test) runs and reruns from its registration alone.
 */
import { registeredScenarios, scenarioByCommand, scenarioOfConfig, type ScenarioConfig } from '../scenarios/scenario-registry.js';
import '../scenarios/builtin-scenarios.js';
import { UserError } from '../core/errors.js';
import type { ParsedArgs } from './args.js';
import { scenarioCli, type Replay } from './scenario-cli.js';
import type { EngineRegistry } from '../core/engine-registry.js';

/** True when `command` is a registered scenario's (so `main` hands it to `runScenarioCommand`). */
export function isScenarioCommand(command: string): boolean {
  return registeredScenarios().some((s) => s.command === command);
}

/** `inferbench <command>` of a registered scenario, with its parsed flags. */
export async function runScenarioCommand(command: string, args: ParsedArgs, registry: EngineRegistry): Promise<number> {
  return scenarioCli(scenarioByCommand(command)).run(args, registry);
}

/**
 * Repeats a stored config through its scenario's CLI, found by the
 * config's `command`, as a new entry linked to the one it repeats. A
 * config of a scenario this inferbench has not registered (a plug-in not
 * loaded) is refused with the reason.
 */
export async function rerunStoredConfig(stored: ScenarioConfig, replay: Replay, args: ParsedArgs, registry: EngineRegistry): Promise<number> {
  const scenario = scenarioOfConfig(stored);
  if (!isScenarioCommand(scenario.command)) {
    throw new UserError(`benchmark ${replay.rerunOf} is a ${scenario.command} run, and the ${scenario.command} scenario is not registered in this inferbench`, 'rerun it with the inferbench (and plug-ins) that recorded it');
  }
  return scenarioCli(scenario).rerun(stored, replay, args, registry);
}
