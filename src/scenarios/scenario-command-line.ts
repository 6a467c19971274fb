/**
 * What a scenario says of its command line, and what the CLI gives it to
 * say it with. A built-in scenario's command line lives in its folder
 * (src/scenarios/<name>/<name>-cli.ts), declared on its registration as
 * `cli` (./scenario-registry.ts) and imported only when its command or a
 * rerun of it runs. src/cli/scenario-cli.ts runs every scenario's command
 * the same way (the output folder, stop signals, progress area, history,
 * report and exit code); what the scenario needs of src/cli, src/runs or
 * src/launchers reaches it as values (flag readers here, launchers in its
 * run hooks), since it cannot import them (test/repo/architecture-import-direction.test.ts).
 */
import type { EngineRegistry } from '../core/engine-registry.js';

/**
 * The command line's flags as a scenario reads them: plain readers the CLI
 * gives the scenario, each failing with a UserError that names the flag, as
 * the CLI's own do. A number is checked against the range its options
 * table names.
 */
export interface ScenarioFlags {
  /** The folder the run writes to and records in: `--out`, or the CLI's default. */
  readonly out: string;
  /** The flag `name` as text, undefined when not given. */
  readonly text: (name: string) => string | undefined;
  /** The flag `name` as comma-separated names, empty items dropped; undefined when not given. */
  readonly list: (name: string) => string[] | undefined;
  /** The flag `name` as a positive whole number, checked against its range; undefined when not given. */
  readonly positiveInt: (name: string) => number | undefined;
  /** Whether the boolean flag `name` was given. */
  readonly given: (name: string) => boolean;
  /** Every value of the repeatable flag `name` in order; undefined when not given. */
  readonly repeated: (name: string) => string[] | undefined;
  /** The flag `name` as comma-separated positive whole numbers, each checked against its range; undefined when not given. */
  readonly positiveIntList: (name: string) => number[] | undefined;
  /** The flag `name` as a whole number ≥ 0, checked against its range; undefined when not given. */
  readonly count: (name: string) => number | undefined;
  /** The flag `name` as a number ≥ 0 in the flag's unit, checked against its range; undefined when not given. */
  readonly number: (name: string) => number | undefined;
  /** `--engines` with `--engine-options` applied (each engine given options becomes its variants); null (every engine) when neither is given. */
  readonly engines: () => string[] | null;
}

/** How the command line shows a run's report: the width, `--wide`, `--details`, and the history entry, for the report's `inferbench show ID` hints. */
export interface CommandReportOptions {
  readonly color: boolean;
  readonly width: number;
  readonly wide: boolean;
  readonly details: boolean;
  readonly historyId: number | null;
}

/**
 * What the command line prints of one run, made once its config is read
 * (so the modules it needs load only then, as the run's do): its start
 * line, its progress lines, its report and the lines after it. Made per
 * run, so a line may depend on what the run learnt as it started.
 */
export interface CommandPrinter<R, P> {
  /** The start line's words, `<head> on <engines><tail>`: the CLI names the engines the run resolved, as many as fit the width. */
  readonly start?: (record: R) => { readonly head: string; readonly tail?: string };
  /** A progress line that stays, a `status` the next one overwrites on a terminal, or nothing. */
  readonly progress: (event: P) => string | { readonly status: string } | null;
  /** The report printed once the run ends. */
  readonly report: (record: R, options: CommandReportOptions) => string;
  /** Lines after the history line (the charts not drawn, and why). */
  readonly after?: (record: R, layout: { readonly width: number; readonly wide: boolean }) => readonly string[];
  /** A fix of the scenario's own for a run that measured nothing; null for the general one. */
  readonly nothingMeasuredFix?: (record: R) => Promise<string | null>;
}

/**
 * A scenario's command line: its config from the flags and from a stored
 * config, and what it prints. The CLI does the rest, for every scenario
 * alike.
 */
export interface ScenarioCommandLine<R, C, P> {
  /** What a stop signal lets finish first (`training step`, `engine call`). */
  readonly unit: string;
  /**
   * The config of the command's flags: every flag read (and refused with
   * its fix) before the run's modules load, so a refused command costs
   * what `--help` costs.
   */
  readonly fromFlags: (flags: ScenarioFlags, registry: EngineRegistry) => Promise<C>;
  /**
   * Run hooks of the command's own, read from its flags after the config
   * (the classification's `--queue` and its companions, whose URL may hold
   * a password and so never goes into the config); given to the run beside
   * the hooks every run gets, beside the launchers (a queue run connects through `Launchers.queue`). Absent: none.
   */
  readonly runHooks?: (flags: ScenarioFlags) => Readonly<Record<string, unknown>>;
  /** A stored config (`inferbench rerun`) written to `out`, checked again as the flags are (an engine or option accepted then may be gone). */
  readonly fromStored: (stored: C, out: string, registry: EngineRegistry) => Promise<C>;
  /** What is printed of a run of `config`, given the run hooks of the command's own (`runHooks`; none on a rerun). */
  readonly printer: (config: C, registry: EngineRegistry, hooks: Readonly<Record<string, unknown>>) => Promise<CommandPrinter<R, P>>;
}
