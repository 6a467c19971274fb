/**
 * What the CLI does with a scenario, every scenario alike: start it from its
 * command's flags (`inferbench <command>`) and repeat a stored config of it
 * (`inferbench rerun <id>`). src/cli/scenario-commands.ts finds the
 * scenario by its command, so neither `main` nor `rerun` names one. Its
 * command line (`ScenarioCommandLine`, src/scenarios/scenario-command-line.ts)
 * is the scenario's own `cli` (a built-in's `<name>-cli.ts`: its flags,
 * progress lines and report), or one made from its registration
 * (`configFromFlags`, `execute`, `report`); this module does the rest: the
 * output folder, the flag readers, stop signals, progress area, history and
 * exit code (run-exit.ts).
 */
import { UserError } from '../core/errors.js';
import { DEFAULT_OUT_DIR, prepareOutputFolder } from '../core/output-folder.js';
import type { RangedOption } from '../core/option-ranges.js';
import { isCliFlagSlot, type FlagSpec } from '../core/flag-spec.js';
import { cellProgress, type CellProgress, type Scenario, type ScenarioCommandLine, type ScenarioConfig, type ScenarioFlags, type ScenarioProgress, type ScenarioRecord } from '../scenarios/scenario-registry.js';
import { countFlag, listFlag, numberFlag, positiveIntFlag, positiveIntListFlag, repeatedFlag, stringFlag, type ParsedArgs } from './args.js';
import { enginesWithOptions } from './engine-options-flag.js';
import { reportRecordedCommand, startLine } from './run-exit.js';
import { screenLayout } from './terminal-width.js';
import type { EngineRegistry } from '../core/engine-registry.js';
import type { RunOutcome } from '../scenarios/run-driver.js';

/** A command line of any scenario, as the CLI runs it. */
type AnyCommandLine = ScenarioCommandLine<ScenarioRecord, ScenarioConfig, ScenarioProgress>;

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

/**
 * The flags as the scenario's command line reads them: each number is
 * checked against the range its options table names, and each reader fails
 * with a UserError naming the flag, as the CLI's own do.
 */
export function scenarioFlags(scenario: Pick<Scenario, 'options'>, args: ParsedArgs, out: string, registry: EngineRegistry): ScenarioFlags {
  const rangeOf = (name: string): RangedOption | undefined => scenario.options.flags.find((f): f is FlagSpec => !isCliFlagSlot(f) && f.name === name)?.range;
  return {
    out,
    text: (name) => stringFlag(args, name),
    list: (name) => listFlag(args, name),
    positiveInt: (name) => positiveIntFlag(args, name, rangeOf(name)),
    given: (name) => args.flags[name] === true,
    repeated: (name) => repeatedFlag(args, name),
    positiveIntList: (name) => positiveIntListFlag(args, name, rangeOf(name)),
    count: (name) => countFlag(args, name, rangeOf(name)),
    number: (name) => numberFlag(args, name, rangeOf(name)),
    engines: () => enginesWithOptions(args, registry),
  };
}

/** A cell's progress in the words every scenario shares: a status as it starts, a line as it ends. */
function cellLine(event: CellProgress): string | { readonly status: string } {
  if (event.kind === 'cell-start') return { status: `  ${event.engine} batch ${event.batchSize}…` };
  return `[${event.index + 1}/${event.total}] cell done`;
}

/**
 * The command line of a scenario that brings no `cli`: its config from its
 * flags (`configFromFlags`), a stored config as it was stored, its cells'
 * progress in the words every scenario shares, and its `report` (the one
 * `show` prints).
 */
function registrationCli(scenario: Scenario, args: ParsedArgs): AnyCommandLine {
  return {
    unit: 'cell',
    fromFlags: async (flags) => {
      if (!scenario.configFromFlags) throw new Error(`the ${scenario.command} scenario has no configFromFlags`);
      return scenario.configFromFlags(flags);
    },
    fromStored: async (stored, out) => ({ ...stored, out }),
    printer: async () => ({
      progress: (event: ScenarioProgress) => {
        const cell = cellProgress(event);
        return cell ? cellLine(cell) : null;
      },
      report: (record, o) => scenario.report(record, { color: o.color, width: o.width, wide: o.wide, text: (name) => stringFlag(args, name), positiveInt: (name) => positiveIntFlag(args, name) }),
    }),
  };
}

/** A scenario's command line: its own `cli`, imported now, or the one its registration makes. */
async function commandLineOf(scenario: Scenario, args: ParsedArgs): Promise<AnyCommandLine> {
  return scenario.cli ? (await scenario.cli()).commandLine : registrationCli(scenario, args);
}

/** How a run of a config is started, and `tune`'s additions. */
export interface RecordedRun<R> {
  readonly out: string;
  /** The history entry a rerun repeats. */
  readonly rerunOf?: number;
  /** Run hooks of the command's own (`ScenarioCommandLine.runHooks`). */
  readonly hooks?: Readonly<Record<string, unknown>>;
  /** Called with the run's outcome once it ends, before the report (`tune` writes tune.csv beside the run's files). */
  readonly finished?: (outcome: RunOutcome<R>) => Promise<void>;
  /** Lines printed under the report. */
  readonly lines?: (record: R) => readonly string[];
}

/**
 * Runs a config of a scenario through its `execute` into the history
 * (src/runs/history/recorded-run.ts), with the CLI's stop signals, progress
 * area and history lines, then prints what its command line prints.
 */
export async function runRecorded<R extends ScenarioRecord, C extends ScenarioConfig, P extends ScenarioProgress>(scenario: Scenario<R, C, P>, cli: ScenarioCommandLine<R, C, P>, config: C, run: RecordedRun<R>, args: ParsedArgs, registry: EngineRegistry): Promise<number> {
  if (!scenario.execute) {
    throw new UserError(`the ${scenario.command} scenario cannot run a stored config in this inferbench`, `load the module that registers ${scenario.command} with a way to run it, or run another scenario`);
  }
  const layout = screenLayout(args);
  const own = run.hooks ?? {};
  const [{ executeRecorded }, printer] = await Promise.all([import('../runs/history/recorded-run.js'), cli.printer(config, registry, own)]);
  const { start, after, nothingMeasuredFix } = printer;
  const lines = run.lines;
  return reportRecordedCommand<R, P>({
    unit: cli.unit,
    out: run.out,
    ...(run.rerunOf !== undefined ? { rerunOf: run.rerunOf } : {}),
    registry,
    execute: async ({ progress, ...hooks }, record) => {
      const recorded = await executeRecorded(scenario, config, {
        ...hooks,
        ...own,
        names: 'flag',
        ...(start
          ? {
              onStart: (r: R) => {
                const line = start(r);
                progress.line(startLine(line.head, r.config['enginesResolved'] as string[], line.tail ?? '', progress.width));
              },
            }
          : {}),
      }, record);
      await run.finished?.(recorded.outcome);
      return recorded;
    },
    progressLine: printer.progress,
    quiet: args.flags['quiet'] === true,
    wide: layout.wide,
    render: (record, color, entryId) => printer.report(record, { color, width: layout.width, wide: layout.wide, details: layout.details === true, historyId: entryId }) + (lines ? `\n${lines(record).join('\n')}\n` : ''),
    ...(after ? { after: (record: R) => after(record, layout) } : {}),
    ...(nothingMeasuredFix ? { nothingMeasuredFix } : {}),
  });
}

/**
 * The CLI of a registered scenario: `inferbench <command>` prepares the
 * output folder first (a folder that cannot be written is the first thing
 * to report), reads every flag into a config, then runs it; `rerun` runs a
 * stored config, checked again, into the history it came from. A scenario
 * with neither a `cli` nor `configFromFlags` is refused on the command
 * line with the reason; its stored configs still rerun.
 */
export function scenarioCli(scenario: Scenario): ScenarioCli {
  return {
    run: async (args, registry) => {
      if (!scenario.cli && !scenario.configFromFlags) {
        throw new UserError(`the ${scenario.command} scenario cannot be started from the command line`, `start it from the dashboard or the API, or register it with configFromFlags`);
      }
      const out = stringFlag(args, 'out') ?? DEFAULT_OUT_DIR;
      await prepareOutputFolder(out);
      const cli = await commandLineOf(scenario, args);
      const flags = scenarioFlags(scenario, args, out, registry);
      const config = await cli.fromFlags(flags, registry);
      const hooks = cli.runHooks?.(flags);
      return runRecorded(scenario, cli, config, { out, ...(hooks ? { hooks } : {}) }, args, registry);
    },
    rerun: async (stored, replay, args, registry) => {
      const cli = await commandLineOf(scenario, args);
      return runRecorded(scenario, cli, await cli.fromStored(stored, replay.out, registry), { out: replay.out, rerunOf: replay.rerunOf }, args, registry);
    },
  };
}
