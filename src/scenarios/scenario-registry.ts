/**
 * Scenarios register themselves, as engines do (src/core/engine-registry.ts):
 * the CLI, history, `list`/`show`/`compare`, the dashboard and the queue
 * look a scenario up here by the word its config (`command`) and its record
 * (`kind`) carry, and never name one. A new scenario is one folder,
 * src/scenarios/<name>/, whose `<name>-scenario.ts` calls `registerScenario`,
 * and one import line in src/scenarios/builtin-scenarios.ts (or, for a plug-in or
 * a test, one `registerScenario` call of its own).
 *
 * The registry lives in src/scenarios/, the layer of the scenarios
 * themselves, so a scenario's folder holds every part of it: its run
 * (`execute`, through ./run-driver.ts), its record's report and dashboard
 * views (built from reports/), its request part and its comparison. What
 * sits above (a launcher, the history, the CLI's flags, the dashboard's
 * query) is given to the scenario as a plain value, never imported
 * (test/repo/architecture-import-direction.test.ts keeps it so).
 */
import type { TopLevelSpec } from 'vega-lite';
import type { ScenarioOptions } from '../core/flag-spec.js';
import type { RangeAudience } from '../core/option-ranges.js';
import { UserError } from '../core/errors.js';
import { recordKindOf } from '../core/record-kind.js';
import type { RunRecordOf } from '../core/results.js';
import type { EngineRegistry } from '../core/engine-registry.js';
import { isFileUrl } from '../core/launch-jobs.js';
import type { Launcher, Launchers } from '../core/launch-jobs.js';
import type { DriverHooks, RunOutcome } from './run-driver.js';
import { registerCellHeadline, storedCommand, type CellHeadline } from './cell-headline.js';
import type { PathCheck, RequestField } from './request-fields.js';
import type { DashboardTab } from '../../reports/dashboard-panels.js';
import type { ScenarioCommandLine, ScenarioFlags } from './scenario-command-line.js';
export type { CommandPrinter, CommandReportOptions, ScenarioCommandLine, ScenarioFlags } from './scenario-command-line.js';

/** The completed cells of a record type. */
export type CompletedCellOf<R> = R extends RunRecordOf<infer Cell> ? Extract<Cell, { readonly state: 'completed' }> : never;

/** Any scenario's record: the run driver's record of some cell type. */
export type ScenarioRecord = RunRecordOf<unknown> & { readonly kind?: string };

/** A stored, replayable config: its `command` names its scenario (absent for `run`, the classification scenario). */
export type ScenarioConfig = object;

/** How `show` asks for part of a report; the CLI reads its flags only when a scenario asks. */
export interface ReportOptions {
  readonly color: boolean;
  readonly width: number;
  /** `--wide`: every column whatever the width. */
  readonly wide?: boolean;
  /** `--details`: every table rather than the one-screen report. */
  readonly details?: boolean;
  /** The history entry shown, for the `inferbench show ID --view …` hints of a one-screen report. */
  readonly historyId?: number | null;
  /** The `show` flag `name` as text (`--view`, `--threads`), undefined when not given. */
  readonly text: (name: string) => string | undefined;
  /** The `show` flag `name` as a positive whole number (checked as the CLI checks it), undefined when not given. */
  readonly positiveInt: (name: string) => number | undefined;
}

/** What `compare` prints for two records of one scenario, and its chart when there is one. */
export interface TerminalComparison {
  readonly text: string;
  /** The comparison chart's spec, or why it is not drawn (asked for only when `compare` draws charts); null when the scenario draws none. */
  readonly chart: (() => Promise<{ readonly spec: TopLevelSpec } | { readonly notDrawn: string }>) | null;
}

/** Options `compare` gives a scenario's terminal comparison. */
export interface CompareOptions {
  readonly color: boolean;
  readonly width: number | undefined;
  /** The two results.json files, for the table's footer. */
  readonly files: readonly [string, string];
  /** `--min-effect`, read (and checked) only by the scenarios that use it. */
  readonly minEffect: () => number;
  /** `--details`: the method and notes in full rather than the one-screen comparison. */
  readonly details?: boolean;
  /** `--wide`: every column whole (width is then unlimited). */
  readonly wide?: boolean;
}

/** One side of a dashboard comparison: the history id and its record. */
export interface ComparedSide<R> {
  readonly id: number;
  readonly record: R;
}

/** A bad view parameter (`?batchSize=`): the dashboard answers 400 naming `field`. */
export class ViewParamError extends UserError {
  constructor(
    message: string,
    fix: string,
    readonly field: string,
  ) {
    super(message, fix);
  }
}

/** An entry's best cell, as the history list phrases it (runs/history/entry-summary.ts). */
export interface HeadlineParts {
  /** The phrase's subject: `engine`, `engine @ host`, led by the model row when the run has several (`mini · q8: onnx-cpu`). */
  readonly subject: string;
  readonly samplesPerSecond: number;
  readonly batchSize: number;
  /** `2 threads`; null for the engine default. */
  readonly threads: string | null;
  /** Fixed sequence length of the cell; null for dataset text. */
  readonly sequenceLength: number | null;
}

/** A cell starting or ending, in words every scenario's progress can be told in. */
export type CellProgress =
  | { readonly kind: 'cell-start'; readonly total: number; readonly engine: string; readonly batchSize: number }
  | { readonly kind: 'cell-done'; readonly total: number; readonly index: number };

/**
 * A scenario's own progress event as a CellProgress: its cell starts (with
 * the engine and batch size, at the top or under `key`) and its cell ends;
 * null for anything else (a probe, a round).
 */
export function cellProgress(event: { readonly kind: string; readonly total: number; readonly index?: number; readonly engine?: string; readonly batchSize?: number; readonly key?: { readonly engine: string; readonly batchSize: number } }): CellProgress | null {
  if (event.kind === 'cell-start') {
    const at = event.key ?? event;
    return at.engine === undefined || at.batchSize === undefined ? null : { kind: 'cell-start', total: event.total, engine: at.engine, batchSize: at.batchSize };
  }
  if (event.kind === 'cell-done') return { kind: 'cell-done', total: event.total, index: event.index ?? 0 };
  return null;
}

/**
 * What a scenario's run is given by whoever starts it (the CLI, the
 * history's recorder, the dashboard's queue): the run driver's hooks, the
 * engines, the scenario's own progress events, and the launchers, which sit
 * above src/scenarios/ and so reach a scenario only as values.
 */
export interface ScenarioRunHooks<R extends ScenarioRecord = ScenarioRecord, P = ScenarioProgress> extends DriverHooks<CellOf<R>, R> {
  readonly registry?: EngineRegistry;
  readonly onProgress?: (event: P) => void;
  /**
   * Runs a job in a fresh child process (src/launchers/isolated-launcher.ts
   * for the built-ins, told the scenario's `childModule`): a run whose
   * config isolates its cells fails without it rather than measuring in
   * this process unasked.
   */
  readonly isolated?: Launcher;
  /** Every launcher, for a run that picks where each of its groups runs (the classification sweep: this process, a child process, a browser page). */
  readonly launchers?: Launchers;
  /** How the run's own checks name an option in an error: `--flag` on the command line, the JSON field on the dashboard (default). */
  readonly names?: RangeAudience;
}

/** The progress events every scenario's run tells: each carries the sweep's cell count. */
export interface ScenarioProgress {
  readonly kind: string;
  readonly total: number;
}

/** The launchers a run that chooses among them must have been given; a programming error when its caller gave none. */
export function launchersOf(hooks: { readonly launchers?: Launchers }): Launchers {
  if (!hooks.launchers) throw new Error('this run picks where its groups run, but its caller gave it no launchers (hooks.launchers)');
  return hooks.launchers;
}

/** The cell type of a record type. */
export type CellOf<R> = R extends RunRecordOf<infer Cell> ? Cell : never;

/** The launcher a run of a config that isolates its cells must have been given; a programming error when its caller gave none. */
export function isolatedOf(hooks: { readonly isolated?: Launcher }): Launcher {
  if (!hooks.isolated) throw new Error('this run isolates its cells, but its caller gave it no isolated launcher (hooks.isolated)');
  return hooks.isolated;
}

/** What a scenario's request part is given by the dashboard: its path guard, its output folder and its engines. */
export interface RequestContext {
  readonly guard: PathCheck;
  readonly out: string;
  readonly registry: EngineRegistry;
}

/**
 * A scenario's part of the dashboard's API (src/scenarios/<name>/<name>-request.ts
 * for the built-ins). The dashboard checks a body's JSON kinds against
 * `start.fields` (derived from the scenario's options, see
 * scenarios/request-fields.ts) and leaves the rest to the scenario, so it names
 * no scenario's fields and no scenario's config type.
 */
export interface ScenarioApi<C extends ScenarioConfig = ScenarioConfig> {
  /** How a JSON body starts one; null when the API only reruns this scenario's stored configs. */
  readonly start: {
    /** Its fields in the order the `valid fields` fix lists them; `compareWith` is added last. */
    readonly fields: readonly RequestField[];
    /** The config from fields whose JSON kinds are checked, validated as its CLI command validates them; throws FieldError. */
    readonly parse: (fields: Readonly<Record<string, unknown>>, ctx: RequestContext) => C;
  } | null;
  /**
   * The config with every model and dataset path resolved again through the
   * guard, when the run starts rather than when it was queued: between the
   * two, a folder inside --root can be swapped for a symlink to one outside
   * it. The config returned carries the real paths just checked, so the run
   * opens exactly what was allowed. Throws the guard's FieldError.
   */
  readonly recheckPaths: (config: C, guard: PathCheck) => C;
  /** A stored config (from any history, the CLI's included), its paths rechecked, made runnable here: written to `ctx.out` and checked as a new one is. */
  readonly resolveStored: (config: C, ctx: RequestContext) => C;
}

/** Everything history, `show`, `compare` and the dashboard need of one scenario. */
export interface Scenario<R extends ScenarioRecord = ScenarioRecord, C extends ScenarioConfig = ScenarioConfig, P = ScenarioProgress> {
  /** The scenario's one word: its command, its stored config's `command` (`run` stores none) and its entries' command in lists. */
  readonly command: string;
  /** The `kind` its records carry; undefined for `run`, whose records carry none (older readers expect none). */
  readonly recordKind: string | undefined;
  /**
   * Its options: the command's flags with their help and ranges
   * (src/scenarios/<name>/<name>-options.ts). The CLI builds the command's
   * parsing and help from this table (src/cli/command-specs.ts), adding
   * only `--help` and the CLI-wide flags it names by slot.
   */
  readonly options: ScenarioOptions;
  /** The model names a not-yet-started entry asked for, for lists. */
  readonly modelsAsked: (config: C) => readonly string[];
  /** The history list's phrase for an entry's best cell; without it, items/s at its batch size, threads and sequence length. */
  readonly headline?: (best: HeadlineParts) => string;
  /**
   * What the history's cell columns hold for a completed cell of this
   * scenario (../scenarios/cell-headline.ts): its main time's mean and p95 and its
   * rate, the list's "best" being the highest rate. Without it a cell's
   * figures stay in its JSON alone.
   */
  readonly cellHeadline?: (cell: CompletedCellOf<R>) => CellHeadline;
  /** `show`'s settings lines, aligned as `  name:         value`. */
  readonly settingLines: (config: C) => string[];
  /** `show`'s report of a record with cells. */
  readonly report: (record: R, options: ReportOptions) => string;
  /**
   * The dashboard's views of a started record (`GET /api/runs/<id>/views`),
   * without id and state; `available` defaults to true. Its `panels` hold
   * what the page draws under each of `tabs` (reports/dashboard-panels.ts).
   */
  readonly views: (record: R, query: URLSearchParams) => Record<string, unknown>;
  /** The dashboard's tabs, each keying a panel of the views; src/dashboard/entry-view.ts adds Compare when the scenario compares. */
  readonly tabs?: readonly DashboardTab[];
  /** The dashboard header's one-line summary of a config (`rates 20, 40 req/s · goal p99 ≤ 200 ms · …`); without it, the `command`. */
  readonly settingsText?: (config: C) => string;
  /** True when the views are served even before a cell is recorded (they say why there is nothing yet). */
  readonly viewsWithoutCells?: boolean;
  /**
   * Runs a config of this scenario end to end (the history's recorder,
   * src/runs/history/recorded-run.ts, runs every scenario through this,
   * for the CLI, `rerun` and the dashboard's queue alike, never naming
   * one). Absent: the scenario's runs are not started from a config.
   */
  readonly execute?: (config: C, hooks: ScenarioRunHooks<R, P>) => Promise<RunOutcome<R>>;
  /**
   * Its part of the dashboard's API: `route` is the word of
   * `POST /api/<route>` that starts one (null: reruns only), and the part
   * itself is imported only when a request comes, as a scenario's run module is,
   * so `--help` does not load the run modules. Absent: the dashboard
   * neither starts nor reruns this scenario's runs.
   */
  readonly api?: { readonly route: string | null; readonly load: () => Promise<ScenarioApi<C>> };
  /**
   * Its config from its command's flags, for a scenario without a `cli`
   * of its own (src/cli/scenario-cli.ts): with it and `execute`,
   * `inferbench <command>` runs the scenario and `inferbench rerun`
   * repeats it, printing its `report`, with no edit in src/cli. The
   * built-in scenarios leave it out: their `cli` reads their flags and
   * prints their own progress lines.
   */
  readonly configFromFlags?: (flags: ScenarioFlags) => C;
  /**
   * Its command line, imported when its command or a rerun of it runs (a
   * literal `() => import('./<name>-cli.js')`, so `--help`, `list` and
   * `show` do not load it and the offline pack's bundler finds it); the
   * module exports it as `commandLine`. Without it, the command line is
   * made from `configFromFlags`, `execute` and `report`.
   */
  readonly cli?: () => Promise<{ readonly commandLine: ScenarioCommandLine<R, C, P> }>;
  /**
   * `file:` URL of the module that registers this scenario's child job kind
   * (src/core/launch-jobs.ts), for a scenario the one child entry does
   * not build in (a plug-in's or a test's): the isolated launch of the
   * scenario (runs/scenario-launch.ts) names it on each launch, so the
   * child imports it and the scenario's cells run in a fresh process from
   * its registration alone. The built-ins give `childJobs` instead: a
   * module path would not survive the bundled offline pack.
   */
  readonly childModule?: string;
  /**
   * Imports the module(s) registering a built-in's child job kinds, as a
   * literal `() => import('./<name>-child-job.js')`: the child entry calls
   * every registered scenario's (scenario-jobs.ts), so a new built-in edits
   * no list of child jobs, the import stays lazy for every other program,
   * and esbuild still bundles the module into the offline pack.
   */
  readonly childJobs?: () => Promise<unknown>;
  /**
   * Imports the module(s) registering this scenario's queue job kind and
   * its runner (src/core/queue-jobs.ts, src/core/queue-runners.ts), as
   * `childJobs` does for child jobs: `inferbench worker` calls every
   * registered scenario's before it takes a job.
   */
  readonly queueJobs?: () => Promise<unknown>;
  readonly compare?: {
    /** `inferbench compare` of two records of this scenario; throws a UserError when nothing matches. */
    readonly terminal?: (a: R, b: R, options: CompareOptions) => TerminalComparison;
    /** The dashboard's `GET /api/compare` answer. */
    readonly json?: (a: ComparedSide<R>, b: ComparedSide<R>) => Record<string, unknown>;
    /** What two records are matched on, for the dashboard's picker: it offers only records sharing a key. */
    readonly keys?: (record: R) => ReadonlySet<string>;
    /** The fix the dashboard gives when a benchmark of this scenario is compared with one of another. */
    readonly hint?: string;
  };
}

const byCommand = new Map<string, Scenario>();

/** Adds a scenario; a second one with the same command or record kind is a programming error. */
export function registerScenario<R extends ScenarioRecord, C extends ScenarioConfig, P = ScenarioProgress>(scenario: Scenario<R, C, P>): void {
  if (byCommand.has(scenario.command)) throw new Error(`scenario ${scenario.command} is registered twice`);
  const clash = [...byCommand.values()].find((s) => s.recordKind === scenario.recordKind);
  if (clash) throw new Error(`scenarios ${clash.command} and ${scenario.command} both write records of kind ${String(scenario.recordKind)}`);
  const route = scenario.api?.route;
  const sameRoute = route == null ? undefined : [...byCommand.values()].find((s) => s.api?.route === route);
  if (sameRoute) throw new Error(`scenarios ${sameRoute.command} and ${scenario.command} both start at POST /api/${String(route)}`);
  if (scenario.childModule !== undefined && !isFileUrl(scenario.childModule)) throw new Error(`scenario ${scenario.command}'s childModule must be a file: URL (import.meta.url of the module), not '${scenario.childModule}'`);
  byCommand.set(scenario.command, scenario as unknown as Scenario);
  if (scenario.cellHeadline !== undefined) registerCellHeadline(scenario.command, scenario.cellHeadline);
}

/** Every registered scenario, in registration order. */
export function registeredScenarios(): readonly Scenario[] {
  return [...byCommand.values()];
}

/** The scenario a dashboard request `POST /api/<route>` starts, or undefined when none starts there. */
export function scenarioByRoute(route: string): Scenario | undefined {
  return [...byCommand.values()].find((s) => s.api?.route === route);
}

/**
 * The scenario of a command word. A word no scenario registered (a history
 * written by a plug-in this process has not loaded) gets a stand-in that
 * lists and shows the entry and says why it has no report or views.
 */
export function scenarioByCommand(command: string): Scenario {
  return byCommand.get(command) ?? unregistered(command);
}

/** The scenario a stored config belongs to: its `command`, or `run` when it has none. */
export function scenarioOfConfig(config: object): Scenario {
  return scenarioByCommand(storedCommand(config));
}

/** The scenario a record belongs to, by its kind (older words included, see core/record-kind.ts). */
export function scenarioOfRecord(record: object): Scenario {
  const kind = recordKindOf(record);
  return [...byCommand.values()].find((s) => s.recordKind === kind) ?? unregistered(kind ?? 'run');
}

function unregistered(command: string): Scenario {
  const why = `the ${command} scenario is not registered in this inferbench`;
  return {
    command,
    recordKind: command,
    options: { summary: why, usage: `inferbench ${command}`, flags: [] },
    modelsAsked: () => [],
    settingLines: () => [],
    report: () => `No report: ${why}.`,
    views: () => ({ kind: command, available: false, reason: why }),
  };
}
