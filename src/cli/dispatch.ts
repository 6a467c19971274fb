/**
 * `inferbench <command> [flags]` as a function: main.ts calls it with the
 * process's argv and turns what it answers (or throws) into the exit code
 * and the error lines; a test calls it in its own process, where a
 * scenario it registered is there to dispatch. Only argument parsing and
 * help are imported up front; each command module (and through it every
 * engine) is imported when run, so `--help` answers without loading a
 * native runtime. As the CLI's entry it is where the default engine
 * registry comes from (imported once a command runs): every command gets
 * it as a value.
 */
import { UserError } from '../core/errors.js';
import { VERBOSE_ENV } from '../core/library-logs.js';
import { parseArgs, repeatedFlag, type ParsedArgs } from './args.js';
import { commandHelp, commands, mainHelp } from './command-specs.js';
import { isScenarioCommand, runScenarioCommand } from './scenario-commands.js';
import { registerScenarioModules, takeScenarioModules } from './scenario-modules.js';
import type { EngineRegistry } from '../core/engine-registry.js';

/** The commands that are no scenario, by name; a scenario's command is found in the registry (scenario-commands.ts). */
const OTHER_COMMANDS: Readonly<Record<string, (args: ParsedArgs, registry: EngineRegistry) => Promise<number>>> = {
  compare: async (args) => (await import('./compare-command.js')).compareCommand(args),
  worker: async (args, registry) => (await import('./worker-command.js')).workerCommand(args, registry),
  engines: async (args, registry) => (await import('./engines-command.js')).enginesCommand(args, registry),
  tune: async (args, registry) => (await import('./tune-command.js')).tuneCommand(args, registry),
  list: async (args) => (await import('./history-commands.js')).listCommand(args),
  show: async (args) => (await import('./history-commands.js')).showCommand(args),
  rerun: async (args, registry) => (await import('./history-commands.js')).rerunCommand(args, registry),
  rm: async (args) => (await import('./history-commands.js')).rmCommand(args),
  serve: async (args, registry) => (await import('./serve-command.js')).serveCommand(args, registry),
  inspect: async (args, registry) => (await import('./inspect-command.js')).inspectCommand(args, registry),
  export: async (args) => (await import('./export-command.js')).exportCommand(args),
};

/** Runs one command line (argv without node and the script) and answers its exit code; a user's mistake is thrown as a UserError. */
export async function dispatch(argv: readonly string[], engines?: EngineRegistry): Promise<number> {
  // A plug-in scenario's module registers its command before the command word is looked up (scenario-modules.ts).
  const taken = takeScenarioModules(argv);
  if (taken.modules.length > 0) await registerScenarioModules(taken.modules);
  const [name, ...rest] = taken.argv;
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
    process.stdout.write(mainHelp());
    return 0;
  }
  if (name === '--version' || name === '-v') {
    const { inferbenchVersion } = await import('../core/package-info.js');
    process.stdout.write(`${inferbenchVersion()}\n`);
    return 0;
  }
  const all = commands();
  const spec = all.find((c) => c.name === name);
  if (!spec) {
    throw new UserError(`unknown command "${name}"`, `use one of: ${all.map((c) => c.name).join(', ')} (see inferbench --help)`);
  }
  const args = parseArgs(rest, spec.flags, spec.name);
  if (args.flags['help'] === true) {
    process.stdout.write(commandHelp(spec));
    return 0;
  }
  // Before any engine opens, in this process and (inherited) every child it starts.
  if (args.flags['verbose'] === true) process.env[VERBOSE_ENV] = '1';
  const registry = engines ?? (await import('../../engines/registry.js')).defaultRegistry;
  // A plug-in family's engines (and the model format its module registers) join the registry before the command reads its --engines.
  const modules = repeatedFlag(args, 'engine-module');
  if (modules !== undefined) await (await import('../launchers/engine-modules.js')).registerEngineModules(modules, registry);
  if (isScenarioCommand(spec.name)) return runScenarioCommand(spec.name, args, registry);
  const handler = Object.hasOwn(OTHER_COMMANDS, spec.name) ? OTHER_COMMANDS[spec.name] : undefined;
  if (!handler) throw new Error(`command ${spec.name} has no handler`);
  return handler(args, registry);
}
