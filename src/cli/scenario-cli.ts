/**
 * What the CLI does with a scenario: start it from its command's flags
 * (`inferbench <command>`) and repeat a stored config of it
 * (`inferbench rerun <id>`). src/cli/scenario-commands.ts looks a
 * scenario's `ScenarioCli` up by its command, so neither `main` nor `rerun`
 * names a scenario. A built-in scenario's command module brings its own
 * (its flags, progress lines and report); any other registered scenario
 * gets `registeredScenarioCli`, made from its registration alone.
 */
import { UserError } from '../core/errors.js';
import { DEFAULT_OUT_DIR, prepareOutputFolder } from '../core/output-folder.js';
import type { RangedOption } from '../core/option-ranges.js';
import { isCliFlagSlot, type FlagSpec } from '../core/flag-spec.js';
import type { CellProgress, Scenario, ScenarioConfig, ScenarioFlags } from '../scenarios/scenario-registry.js';
import { listFlag, positiveIntFlag, stringFlag, type ParsedArgs } from './args.js';
import { reportRecordedCommand } from './run-exit.js';
import { reportWidth } from './terminal-width.js';
import type { EngineRegistry } from '../core/engine-registry.js';

/** Where a rerun writes and which entry it repeats. */
export interface Replay {
  /** The history's folder: the rerun records in the same history as the entry it repeats. */
  readonly out: string;
  readonly rerunOf: number;
}

/** One scenario's CLI: its command, and a rerun of a stored config with the rerun command's flags (`--wide`, `--quiet`). */
export interface ScenarioCli {
  readonly run: (args: ParsedArgs, registry: EngineRegistry) => Promise<number>;
  readonly rerun: (stored: ScenarioConfig, replay: Replay, args: ParsedArgs, registry: EngineRegistry) => Promise<number>;
}

/** The flags as the scenario's `configFromFlags` reads them; a positive whole number is checked against the range its options table names. */
function flagsOf(scenario: Scenario, args: ParsedArgs, out: string): ScenarioFlags {
  const rangeOf = (name: string): RangedOption | undefined => scenario.options.flags.find((f): f is FlagSpec => !isCliFlagSlot(f) && f.name === name)?.range;
  return {
    out,
    text: (name) => stringFlag(args, name),
    list: (name) => listFlag(args, name),
    positiveInt: (name) => positiveIntFlag(args, name, rangeOf(name)),
    given: (name) => args.flags[name] === true,
  };
}

/** A cell's progress in the words every scenario shares: a status as it starts, a line as it ends. */
function cellLine(event: CellProgress): string | { readonly status: string } {
  if (event.kind === 'cell-start') return { status: `  ${event.engine} batch ${event.batchSize}…` };
  return `[${event.index + 1}/${event.total}] cell done`;
}

/**
 * Runs a config of a registered scenario through its `execute` into the history,
 * with the CLI's stop signals, progress area and history lines, then
 * prints its `report` (the one `show` prints).
 */
function runRecorded(scenario: Scenario, config: ScenarioConfig, out: string, rerunOf: number | undefined, args: ParsedArgs, registry: EngineRegistry): Promise<number> {
  if (!scenario.execute) {
    throw new UserError(`the ${scenario.command} scenario cannot run a stored config in this inferbench`, `load the module that registers ${scenario.command} with a way to run it, or run another scenario`);
  }
  const layout = reportWidth(args);
  return reportRecordedCommand<Parameters<Scenario['report']>[0], CellProgress>({
    unit: 'cell',
    out,
    ...(rerunOf !== undefined ? { rerunOf } : {}),
    registry,
    execute: async ({ signal, registry: engines, onProgress }, record) => (await import('../runs/history/recorded-run.js')).executeStored(config, { signal, registry: engines, onCell: onProgress }, record),
    progressLine: cellLine,
    quiet: args.flags['quiet'] === true,
    wide: layout.wide,
    render: (record, color) =>
      scenario.report(record, { color, ...layout, text: (name) => stringFlag(args, name), positiveInt: (name) => positiveIntFlag(args, name) }),
  });
}

/**
 * The CLI of a scenario that brings no command module: its config from its
 * flags (`configFromFlags`), run and rerun through `execute` (into the history), and
 * its `report`. A scenario without `configFromFlags` is refused on the
 * command line with the reason; its stored configs still rerun.
 */
export function registeredScenarioCli(scenario: Scenario): ScenarioCli {
  return {
    run: async (args, registry) => {
      const fromFlags = scenario.configFromFlags;
      if (!fromFlags) {
        throw new UserError(`the ${scenario.command} scenario cannot be started from the command line`, `start it from the dashboard or the API, or register it with configFromFlags`);
      }
      const out = stringFlag(args, 'out') ?? DEFAULT_OUT_DIR;
      // Before anything else, as every scenario command does: an output folder that cannot be written is the first thing to report.
      await prepareOutputFolder(out);
      return runRecorded(scenario, fromFlags(flagsOf(scenario, args, out)), out, undefined, args, registry);
    },
    rerun: (stored, replay, args, registry) => runRecorded(scenario, { ...stored, out: replay.out }, replay.out, replay.rerunOf, args, registry),
  };
}
