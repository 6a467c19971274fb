/**
 * The scenarios' commands, looked up by the scenario's word: `main`
 * dispatches `inferbench <command>` and `rerun` repeats a stored config
 * through here, and neither names a scenario. A built-in scenario's
 * command module (its flags, progress lines and report) is imported only
 * when its command runs, so `--help`, `list` and `show` load no engine; a
 * scenario registered anywhere else (a plug-in, a test) needs no line
 * here: it runs and reruns from its registration (scenario-cli.ts).
 */
import { registeredScenarios, scenarioByCommand, scenarioOfConfig, type Scenario, type ScenarioConfig } from '../scenarios/scenario-registry.js';
import '../scenarios/builtin-scenarios.js';
import { UserError } from '../core/errors.js';
import type { ParsedArgs } from './args.js';
import { scenarioCli, type Replay, type ScenarioCli } from './scenario-cli.js';
import type { EngineRegistry } from '../core/engine-registry.js';

/** The built-in scenarios' command modules, by command; each exports its `scenarioCli`. */
const COMMAND_MODULES: Readonly<Record<string, () => Promise<{ readonly scenarioCli: ScenarioCli }>>> = {
  run: () => import('./run-command.js'),
};

/** True when `command` is a registered scenario's (so `main` hands it to `runScenarioCommand`). */
export function isScenarioCommand(command: string): boolean {
  return registeredScenarios().some((s) => s.command === command);
}

/** The CLI of a scenario: its command module's, or the one its registration makes. */
async function cliOf(scenario: Scenario): Promise<ScenarioCli> {
  const load = Object.hasOwn(COMMAND_MODULES, scenario.command) ? COMMAND_MODULES[scenario.command] : undefined;
  return load ? (await load()).scenarioCli : scenarioCli(scenario);
}

/** `inferbench <command>` of a registered scenario, with its parsed flags. */
export async function runScenarioCommand(command: string, args: ParsedArgs, registry: EngineRegistry): Promise<number> {
  return (await cliOf(scenarioByCommand(command))).run(args, registry);
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
  return (await cliOf(scenario)).rerun(stored, replay, args, registry);
}
