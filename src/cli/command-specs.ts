import type { FlagSpec } from './args.js';

/** A CLI command: its flags and help. Kept free of heavy imports so `--help` is instant. */
export interface CommandSpec {
  readonly name: string;
  readonly summary: string;
  readonly usage: string;
  readonly flags: readonly FlagSpec[];
  readonly details?: string;
}

const HELP: FlagSpec = { name: 'help', kind: 'boolean', help: 'show this help' };

export const RUN_COMMAND: CommandSpec = {
  name: 'run',
  summary: 'benchmark a model on every available engine at several batch sizes',
  usage: 'inferbench run [options]',
  flags: [
    { name: 'model', kind: 'value', arg: 'DIR', help: 'Hugging Face model folder (config.json, tokenizer.json, onnx/model.onnx); default: the embedded tiny BERT' },
    { name: 'engines', kind: 'value', arg: 'a,b', help: 'engines to run (see `inferbench engines`); default: every available engine' },
    { name: 'batch-sizes', kind: 'value', arg: '1,8,32', help: 'batch sizes to sweep; default 1,8,32' },
    { name: 'dataset', kind: 'value', arg: 'PATH', help: 'JSONL, CSV or TSV file, or a folder of shards; default: the embedded sentiment set' },
    { name: 'text-column', kind: 'value', arg: 'NAME', help: 'column holding the text; default: detected (text, sentence, review, content, tweet)' },
    { name: 'label-column', kind: 'value', arg: 'NAME', help: 'column holding the label; default: detected' },
    { name: 'limit', kind: 'value', arg: 'N', help: 'rows streamed per cell; default 256' },
    { name: 'warmup', kind: 'value', arg: 'N', help: 'warmup batches before measuring; default 2' },
    { name: 'threads', kind: 'value', arg: '1,2,4', help: 'intra-op thread counts to sweep; engines that cannot set them are skipped; default: engine default' },
    { name: 'min-time', kind: 'value', arg: 'S', help: 'measure each cell for at least S seconds (after one full pass over the rows); default 2' },
    { name: 'min-batches', kind: 'value', arg: 'N', help: 'and at least N batches; default 20' },
    { name: 'max-time', kind: 'value', arg: 'S', help: 'stop a cell after S seconds even if the minimums are not met (verdict NOISY); default 60' },
    { name: 'max-cv', kind: 'value', arg: 'X', help: 'coefficient of variation above which a cell is NOISY; default 0.2' },
    { name: 'reference', kind: 'value', arg: 'ENGINE', help: 'engine whose outputs every cell is compared with; `none` turns parity off; default onnx-cpu' },
    { name: 'tolerance', kind: 'value', arg: 'X', help: 'largest absolute output difference from the reference that passes; default 1e-4' },
    { name: 'no-isolate', kind: 'boolean', help: 'run every engine in this process instead of one child process per engine load' },
    { name: 'out', kind: 'value', arg: 'DIR', help: 'output folder; a run writes <out>/<run-id>/; default ./inferbench-out' },
    { name: 'no-png', kind: 'boolean', help: 'skip comparison.png' },
    HELP,
  ],
  details:
    'Writes results.json (config, environment, every cell with raw samples), results.csv and comparison.png.\n' +
    'Ctrl-C stops after the current batch and still writes what was measured.',
};

export const ENGINES_COMMAND: CommandSpec = {
  name: 'engines',
  summary: 'list every engine with its availability, the reason when unavailable and how to enable it',
  usage: 'inferbench engines [--json]',
  flags: [{ name: 'json', kind: 'boolean', help: 'print JSON' }, HELP],
};

export const INSPECT_COMMAND: CommandSpec = {
  name: 'inspect',
  summary: "list a model's ops, opset, inputs and outputs, and which engines can run it here",
  usage: 'inferbench inspect --model DIR [--json]',
  flags: [
    { name: 'model', kind: 'value', arg: 'DIR', help: 'Hugging Face model folder (onnx/model.onnx) or an .onnx file' },
    { name: 'json', kind: 'boolean', help: 'print JSON' },
    HELP,
  ],
  details: 'tfjs engines list the ONNX ops their graph translation lacks; ONNX Runtime engines say whether they are available.',
};

export const COMMANDS: readonly CommandSpec[] = [RUN_COMMAND, ENGINES_COMMAND, INSPECT_COMMAND];

/** Help text of one command. */
export function commandHelp(spec: CommandSpec): string {
  const width = Math.max(...spec.flags.map((f) => `--${f.name}${f.arg ? ` ${f.arg}` : ''}`.length));
  const lines = spec.flags.map((f) => `  ${`--${f.name}${f.arg ? ` ${f.arg}` : ''}`.padEnd(width)}  ${f.help}`);
  return `${spec.summary}\n\nUsage: ${spec.usage}\n\nOptions:\n${lines.join('\n')}\n${spec.details ? `\n${spec.details}\n` : ''}`;
}

/** Top-level help listing the commands. */
export function mainHelp(): string {
  const width = Math.max(...COMMANDS.map((c) => c.name.length));
  return (
    'inferbench: run one transformer model on every inference engine you have and report what was measured.\n\n' +
    'Usage: inferbench <command> [options]\n\nCommands:\n' +
    COMMANDS.map((c) => `  ${c.name.padEnd(width)}  ${c.summary}`).join('\n') +
    '\n\nRun `inferbench <command> --help` for its options. With no command, `inferbench` shows this help.\n'
  );
}
