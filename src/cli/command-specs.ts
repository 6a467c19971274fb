/**
 * Every command's spec, for parsing and help. The scenarios' commands
 * (`run`, `generate`, `train`, `load` and any scenario registered later)
 * are built from the scenario registry: each scenario carries its own
 * options table (src/scenarios/<name>/<name>-options.ts), and this module
 * adds only what is the CLI's own, `--help` and the definitions of the
 * CLI-wide flags a table names by slot. The commands that are no scenario
 * (compare, engines, worker, inspect, export, the history) are defined here.
 */
import { CLI_SLOT_FLAGS, DETAILS_FLAG, ENGINE_MODULE_FLAG, HELP_FLAG as HELP, QUIET_FLAG, VERBOSE_FLAG, WIDE_FLAG, type CommandSpec, type FlagSpec } from './args.js';
export type { CommandSpec } from './args.js';
import { HISTORY_COMMANDS } from './history-specs.js';
import { TUNE_COMMAND } from './tune-specs.js';
import { isCliFlagSlot } from '../core/flag-spec.js';
import { flagRangeHelp } from '../core/option-ranges.js';
import { CONFIG_FLAG, MODEL_FLAG, REVISION_FLAG } from '../models/model-flags.js';
import { registeredScenarios, type Scenario } from '../scenarios/scenario-registry.js';
import '../scenarios/builtin-scenarios.js';

/** The CLI's definition of each flag a scenario's options table names by slot. */

/** A scenario's command: its options table with the CLI-wide flags filled in where it names them, and `--help` last. */
export function scenarioCommand(scenario: Scenario): CommandSpec {
  const { summary, usage, flags, details } = scenario.options;
  return {
    name: scenario.command,
    summary,
    usage,
    flags: [...flags.map((f) => (isCliFlagSlot(f) ? CLI_SLOT_FLAGS[f.cliFlag] : f)), HELP],
    ...(details !== undefined ? { details } : {}),
  };
}

export const WORKER_COMMAND: CommandSpec = {
  name: 'worker',
  summary: 'take sweep jobs from a Redis queue (BullMQ) and run them on this machine, for `run --queue`',
  usage: 'inferbench worker --queue redis://HOST:PORT [--name NAME] [--concurrency 1]',
  flags: [
    { name: 'queue', kind: 'value', arg: 'URL', help: 'Redis the coordinator uses: redis://[USER:PASSWORD@]HOST:PORT[/DB], rediss:// for TLS' },
    { name: 'name', kind: 'value', arg: 'NAME', help: 'this worker\'s name in every table (unique on the queue); default: the hostname' },
    { name: 'concurrency', kind: 'value', arg: 'N', help: 'jobs run at once; default 1 (one open at a time keeps timings clean)' },
    { name: 'engines', kind: 'value', arg: 'a,b', help: 'engines this worker offers; the others show as unavailable on it; default: every available engine' },
    { name: 'stall-timeout', kind: 'value', arg: 'S', help: 'seconds a job of a worker that stopped answering (killed, cut off) waits before another worker takes it; default 30' },
    { ...ENGINE_MODULE_FLAG, help: `${ENGINE_MODULE_FLAG.help}; never taken from a job` },
    VERBOSE_FLAG,
    HELP,
  ],
  details:
    'Registers its fingerprint (CPU, cores, RAM, GPU, OS, Node and engine versions) and its engines, then takes one job at a time.\n' +
    'A job is one open group (model × engine × threads with its batch sizes and rounds); each open runs in a fresh child process.\n' +
    'Jobs are plain data of one schema: anything else is refused with the reason. Ctrl-C or SIGTERM finishes the current job.',
};

export const ENGINES_COMMAND: CommandSpec = {
  name: 'engines',
  summary: 'list every engine with its availability, the reason when unavailable and how to enable it',
  usage: 'inferbench engines [--explain ID] [--options ID] [--json] [--wide]',
  flags: [
    { name: 'explain', kind: 'value', arg: 'ID', help: 'one engine in full: what it is, and when unavailable the whole reason and how to enable it; or a browser (chromium, firefox, webkit): what a page offers in it' },
    { name: 'json', kind: 'boolean', help: 'print JSON (every field, every reason in full)' },
    { name: 'options', kind: 'value', arg: 'ID', help: "print the engine's option table for --engine-options: key, allowed values, default, what it does, how it is applied and read back" },
    WIDE_FLAG,
    ENGINE_MODULE_FLAG,
    HELP,
  ],
};

export const INSPECT_COMMAND: CommandSpec = {
  name: 'inspect',
  summary: "list a model's ops, opset, inputs and outputs, and which engines can run it here",
  usage: 'inferbench inspect [--model DIR|ID|FILE.onnx] [--config SPEC] [--engines a,b] [--json]',
  flags: [
    { ...MODEL_FLAG, arg: 'DIR|ID|FILE', help: `${MODEL_FLAG.help.replace('; repeat for several; default: the embedded tiny BERT', '')}, an .onnx file, or a folder with a tfjs GraphModel (model.json) or a SavedModel (saved_model.pb); repeat for several; default: the embedded tiny BERT, as for run` },
    REVISION_FLAG,
    CONFIG_FLAG,
    { name: 'engines', kind: 'value', arg: 'a,b', help: 'engines to judge (see `inferbench engines`); only these are probed; default: every engine' },
    { name: 'json', kind: 'boolean', help: 'print JSON (an array when several models are given)' },
    ENGINE_MODULE_FLAG,
    HELP,
  ],
  details:
    'tfjs translator engines list the ONNX ops their graph translation lacks; the GraphModel and SavedModel engines say whether\n' +
    'the exporter maps the graph; ONNX Runtime engines say whether they are available. For a GraphModel or SavedModel folder:\n' +
    'its signature, its TensorFlow ops, and which engines run that format.',
};

export const EXPORT_COMMAND: CommandSpec = {
  name: 'export',
  summary: "write a model's ONNX graph as a tfjs GraphModel or a TensorFlow SavedModel, to run on tfjs's own executors",
  usage: 'inferbench export --model DIR|ID --format graph-model|saved-model --out DIR',
  flags: [
    { name: 'model', kind: 'value', arg: 'DIR|ID', help: 'Hugging Face model folder (config.json, tokenizer.json, onnx/model.onnx) or Hub id (org/name)' },
    { name: 'revision', kind: 'value', arg: 'REV', help: 'Hub branch, tag or commit of a --model Hub id; default main' },
    { name: 'format', kind: 'value', arg: 'graph-model|saved-model', help: 'graph-model: model.json + weight shards for tfjs-converter\'s loadGraphModel; saved-model: saved_model.pb for tf.node.loadSavedModel and TensorFlow' },
    { name: 'out', kind: 'value', arg: 'DIR', help: 'folder to write (must not exist, or be empty); it becomes a model folder: config and tokenizer are copied beside the graph' },
    HELP,
  ],
  details:
    'The exporter maps each ONNX op to TensorFlow ops in TypeScript (no Python); batch and sequence dims stay dynamic.\n' +
    'A GraphModel holds int64 as int32 (tfjs has no int64); a SavedModel keeps int64. An op with no mapping, or a quantized\n' +
    'graph, is refused with the op and the node. `inferbench run --model DIR` then runs the folder on tfjs-<backend>-graph-model\n' +
    'or tfjs-node-saved-model; the run engines export on their own (into the cache) when a model has only an ONNX graph.',
};

export const COMPARE_COMMAND: CommandSpec = {
  name: 'compare',
  summary: "compare two runs cell by cell; a change is called only when a t-test on the rounds' means supports it",
  usage: 'inferbench compare <runA> <runB> [--min-effect X] [--out DIR] [--no-png] [--wide] [--details]   (each a run folder, its results.json, or a history id)',
  flags: [
    { name: 'min-effect', kind: 'value', arg: 'X', help: 'smallest change |B/A − 1| ever called faster or slower, as a fraction; default 0.05 (5%)' },
    { name: 'out', kind: 'value', arg: 'DIR', help: 'folder whose history ids are used, and where the chart compare-<runA>-vs-<runB>.png goes; default ./inferbench-out' },
    { name: 'no-png', kind: 'boolean', help: 'print the table only, without the chart' },
    WIDE_FLAG,
    { ...DETAILS_FLAG, help: 'print the method and every note in full under the table, rather than the one-screen comparison' },
    HELP,
  ],
  details:
    'Cells are matched by model, engine, batch size, threads actually used (read back from the engine) and sequence\n' +
    "length. Each round's mean engine time per batch is one observation; B/A is the ratio of the means of round means,\n" +
    "with a 95% interval on the log scale. \"faster\" or \"slower\" is called only when the two-sided t-test of log(B/A)\n" +
    "on the round means gives p < 0.05 (exactly when that interval excludes 1) AND |B/A − 1| ≥ --min-effect;\n" +
    '"no difference" only when that whole interval lies within ±5% of 1 (the equivalence bound); otherwise "inconclusive\n' +
    '(0.93×–2.31×): more rounds would tell (--rounds N)", N from the spread between rounds. A run recorded before rounds existed counts as one round and\n' +
    'can never support a call. Cells measured on a noisy host (other processes above 25% of CPU time, net of\n' +
    "inferbench's own, or CPU steal > 5%) are named in a warning. Each side's VALID/NOISY verdict is shown beside the call.\n" +
    'Two `generate` runs are compared with their TTFT and TPOT ratios and no faster/slower call; their chart draws each\n' +
    "side's TTFT and TPOT per matched cell with its 95% interval across rounds.",
};

/** The commands that are no scenario, in the order `inferbench --help` lists them after the scenarios'. */
const OTHER_COMMANDS: readonly CommandSpec[] = [TUNE_COMMAND, COMPARE_COMMAND, ENGINES_COMMAND, WORKER_COMMAND, INSPECT_COMMAND, EXPORT_COMMAND, ...HISTORY_COMMANDS];

/**
 * Every command, as `inferbench --help` lists them: the registered
 * scenarios' first, in registration order, read from the registry when
 * asked (a scenario registered after this module loaded is there too).
 */
export function commands(): readonly CommandSpec[] {
  return [...registeredScenarios().map(scenarioCommand), ...OTHER_COMMANDS];
}

/** Help text of one command. */
export function commandHelp(spec: CommandSpec): string {
  const width = Math.max(...spec.flags.map((f) => `--${f.name}${f.arg ? ` ${f.arg}` : ''}`.length));
  const lines = spec.flags.map((f) => `  ${`--${f.name}${f.arg ? ` ${f.arg}` : ''}`.padEnd(width)}  ${f.help}${f.range ? `; ${flagRangeHelp(f.range)}` : ''}`);
  return `${spec.summary}\n\nUsage: ${spec.usage}\n\nOptions:\n${lines.join('\n')}\n${spec.details ? `\n${spec.details}\n` : ''}`;
}

/** Top-level help listing the commands. */
export function mainHelp(): string {
  const all = commands();
  const width = Math.max(...all.map((c) => c.name.length));
  return (
    'inferbench: run one transformer model on every inference engine you have and report what was measured.\n\n' +
    'Usage: inferbench <command> [options]\n\nCommands:\n' +
    all.map((c) => `  ${c.name.padEnd(width)}  ${c.summary}`).join('\n') +
    '\n\nRun `inferbench <command> --help` for its options. With no command, `inferbench` shows this help.\n' +
    'Any command takes `--scenario-module PATH` (repeatable): a module that registers a scenario of its own (a plug-in\'s).\n'
  );
}
