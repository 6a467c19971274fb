/**
 * `inferbench <command> [flags]` as a function: main.ts calls it with the
 * process's argv and turns what it answers (or throws) into the exit code
 * and the error lines; a test calls it in its own process, where a
 * scenario it registered is there to dispatch. Only argument parsing and
 * help are imported up front; each command module (and through it every
 * engine) is imported when run, so `--help` answers without loading a
 * native runtime.
 */
import { UserError } from '../core/errors.js';
import { VERBOSE_ENV } from '../core/library-logs.js';
import { parseArgs, type ParsedArgs } from './args.js';
import { commandHelp, commands, mainHelp } from './command-specs.js';
import { isScenarioCommand, runScenarioCommand } from './scenario-commands.js';

/** The commands that are no scenario, by name; a scenario's command is found in the registry (scenario-commands.ts). */
const OTHER_COMMANDS: Readonly<Record<string, (args: ParsedArgs) => Promise<number>>> = {
  compare: async (args) => (await import('./compare-command.js')).compareCommand(args),
  worker: async (args) => (await import('./worker-command.js')).workerCommand(args),
  engines: async (args) => (await import('./engines-command.js')).enginesCommand(args),
  tune: async (args) => (await import('./tune-command.js')).tuneCommand(args),
  list: async (args) => (await import('./history-commands.js')).listCommand(args),
  show: async (args) => (await import('./history-commands.js')).showCommand(args),
  rerun: async (args) => (await import('./history-commands.js')).rerunCommand(args),
  rm: async (args) => (await import('./history-commands.js')).rmCommand(args),
  serve: async (args) => (await import('./serve-command.js')).serveCommand(args),
  inspect: async (args) => (await import('./inspect-command.js')).inspectCommand(args),
  export: async (args) => (await import('./export-command.js')).exportCommand(args),
};

/** Runs one command line (argv without node and the script) and answers its exit code; a user's mistake is thrown as a UserError. */
export async function dispatch(argv: readonly string[]): Promise<number> {
  const [name, ...rest] = argv;
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
  // Before any engine loads, in this process and (inherited) every child it starts.
  if (args.flags['verbose'] === true) process.env[VERBOSE_ENV] = '1';
  if (isScenarioCommand(spec.name)) return runScenarioCommand(spec.name, args);
  const handler = Object.hasOwn(OTHER_COMMANDS, spec.name) ? OTHER_COMMANDS[spec.name] : undefined;
  if (!handler) throw new Error(`command ${spec.name} has no handler`);
  return handler(args);
}
