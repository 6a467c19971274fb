import { DETAILS_FLAG, HELP_FLAG as HELP, QUIET_FLAG, VERBOSE_FLAG, WIDE_FLAG, type CommandSpec, type FlagSpec } from './args.js';

const OUT: FlagSpec = { name: 'out', kind: 'value', arg: 'DIR', help: 'output folder holding history.duckdb and the run folders; default ./inferbench-out' };
const JSON_FLAG: FlagSpec = { name: 'json', kind: 'boolean', help: 'print JSON' };

export const LIST_COMMAND: CommandSpec = {
  name: 'list',
  summary: 'list the benchmark history, newest first: id, date, model, engines, state and best throughput',
  usage: 'inferbench list [--out DIR] [--json] [--wide]',
  flags: [OUT, JSON_FLAG, WIDE_FLAG, HELP],
};

export const SHOW_COMMAND: CommandSpec = {
  name: 'show',
  summary: 'show one benchmark of the history: its settings, state, links and tables',
  usage: 'inferbench show <id> [--view NAME] [--details] [--batch-size N] [--threads N|default] [--out DIR] [--json] [--wide]',
  flags: [
    OUT,
    { name: 'view', kind: 'value', arg: 'NAME', help: 'one table of a run: speed, latency, noise, scaling, core, batch, memory, growth, energy, cold-start, parity, quantization, size, environment, legends; of a load, generate or train benchmark, one of the views its report names last (load: rates, time-per-request, peak, verdicts…); summary (the one-screen report, default) or all (every table, as --details)' },
    DETAILS_FLAG,
    { name: 'batch-size', kind: 'value', arg: 'N', help: 'the fixed batch size of the core-scaling view; default the largest measured' },
    { name: 'threads', kind: 'value', arg: 'N', help: 'the fixed core count of the batch-size-scaling view (`default` for the engine default); default the one with most cells' },
    JSON_FLAG,
    WIDE_FLAG,
    HELP,
  ],
  details: '<id> is the number `inferbench list` shows, or a run folder id. --batch-size alone shows the core view, --threads alone the batch view.',
};

export const RERUN_COMMAND: CommandSpec = {
  name: 'rerun',
  summary: 'run a benchmark of the history again with the same settings, as a new entry linked to it',
  usage: 'inferbench rerun <id> [--out DIR] [--verbose] [--wide] [--details] [--quiet]',
  flags: [OUT, VERBOSE_FLAG, WIDE_FLAG, DETAILS_FLAG, QUIET_FLAG, HELP],
};

export const RM_COMMAND: CommandSpec = {
  name: 'rm',
  summary: 'remove a benchmark from the history and delete its run folder',
  usage: 'inferbench rm <id> [--out DIR] [--yes]',
  flags: [OUT, { name: 'yes', kind: 'boolean', help: 'do not ask for confirmation' }, HELP],
};

export const SERVE_COMMAND: CommandSpec = {
  name: 'serve',
  summary: 'open the local web dashboard: add, run, re-run, remove and compare benchmarks',
  usage: 'inferbench serve [--port N] [--host ADDR] [--out DIR] [--root DIR] [--allow DIR,DIR]',
  flags: [
    { name: 'port', kind: 'value', arg: 'N', help: 'TCP port; 0 picks a free one; default 8765' },
    { name: 'host', kind: 'value', arg: 'ADDR', help: 'address to listen on; default 127.0.0.1. Any other address requires the access token printed at start-up' },
    { name: 'token', kind: 'value', arg: 'TOKEN', help: 'access token to require instead of a generated one (at least 16 characters)' },
    OUT,
    { name: 'root', kind: 'value', arg: 'DIR', help: 'folder model and dataset paths are resolved in and must stay inside; default the current folder' },
    { name: 'allow', kind: 'value', arg: 'DIR,DIR', help: 'more folders model and dataset paths may point into' },
    VERBOSE_FLAG,
    HELP,
  ],
  details:
    'Runs started from the page wait in a queue and run one at a time. Every asset is served locally.\n' +
    'Model and dataset paths outside --root and --allow are refused.',
};

/** The history commands, in the order `inferbench --help` lists them. */
export const HISTORY_COMMANDS: readonly CommandSpec[] = [LIST_COMMAND, SHOW_COMMAND, RERUN_COMMAND, RM_COMMAND, SERVE_COMMAND];
