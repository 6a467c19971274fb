#!/usr/bin/env node
import { UserError } from '../core/errors.js';
import { fileSystemError, isFileSystemError, syscallVerb } from '../core/fs-errors.js';
import { parseArgs } from './args.js';
import { VERBOSE_ENV } from '../core/library-logs.js';
import { commandHelp, commands, mainHelp } from './command-specs.js';

/**
 * Entry point. Only argument parsing and help are imported up front; each
 * command module (and through it every engine) is imported when run, so
 * `--help` answers without loading a native runtime.
 */
async function main(argv: readonly string[]): Promise<number> {
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
  switch (spec.name) {
    case 'run':
      return (await import('./run-command.js')).runCommand(args);
    case 'compare':
      return (await import('./compare-command.js')).compareCommand(args);
    case 'generate':
      return (await import('./generate-command.js')).generateCommand(args);
    case 'worker':
      return (await import('./worker-command.js')).workerCommand(args);
    case 'train':
      return (await import('./train-command.js')).trainCommand(args);
    case 'load':
      return (await import('./load-command.js')).loadCommand(args);
    case 'engines':
      return (await import('./engines-command.js')).enginesCommand(args);
    case 'list':
      return (await import('./history-commands.js')).listCommand(args);
    case 'show':
      return (await import('./history-commands.js')).showCommand(args);
    case 'rerun':
      return (await import('./history-commands.js')).rerunCommand(args);
    case 'rm':
      return (await import('./history-commands.js')).rmCommand(args);
    case 'serve':
      return (await import('./serve-command.js')).serveCommand(args);
    case 'inspect':
      return (await import('./inspect-command.js')).inspectCommand(args);
    case 'export':
      return (await import('./export-command.js')).exportCommand(args);
    default:
      throw new Error(`command ${spec.name} has no handler`);
  }
}

/**
 * A reader that stops early (`inferbench show 2 | head -1`) closes the pipe;
 * the next write fails with EPIPE. Like git and ls, the CLI then exits
 * quietly with 0: the reader got what it asked for. Anything already
 * written to files stays; only the rest of the printout is dropped.
 */
process.stdout.on('error', (err: NodeJS.ErrnoException) => {
  if (err.code === 'EPIPE') process.exit(0);
  throw err;
});

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (caught: unknown) => {
    // A file-system error on a user's path that no command mapped itself is still the user's to fix (rc 2, no stack).
    const err = caught instanceof UserError || !isFileSystemError(caught) || !(caught as { path?: unknown }).path ? caught : fileSystemError(caught, syscallVerb(caught));
    if (err instanceof UserError) {
      process.stderr.write(`inferbench: error: ${err.message}\n${err.fix ? `  fix: ${err.fix}\n` : ''}`);
      process.exitCode = err.exitCode;
      return;
    }
    process.stderr.write(`inferbench: internal error (please report it):\n${err instanceof Error ? err.stack ?? err.message : String(err)}\n`);
    process.exitCode = 1;
  },
);
