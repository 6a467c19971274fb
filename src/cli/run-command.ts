import type { ProgressEvent } from '../scenarios/classify/benchmark-options.js';
import type { RunOutcome } from '../scenarios/run-driver.js';
import type { RunConfig } from '../scenarios/classify/run-config.js';
import { resolveRunConfig } from '../scenarios/classify/resolve-run-config.js';
import { DEFAULT_OUT_DIR } from '../core/output-folder.js';
import { formatDuration } from '../core/units.js';
import { prepareOutputFolder } from '../core/output-folder.js';
import { DEFAULT_ROUNDS, DEFAULT_STOP_RULE } from '../core/stop-rule.js';
import { UserError } from '../core/errors.js';
import { DEFAULT_PARITY_TOLERANCE } from '../core/parity.js';
import { countFlag, listFlag, numberFlag, positiveIntFlag, positiveIntListFlag, repeatedFlag, stringFlag, type ParsedArgs } from './args.js';
import { reportRecordedCommand, startLine } from './run-exit.js';
import { reportWidth } from './terminal-width.js';
import type { CompletedCell, RunRecord } from '../core/results.js';
import type { VaryingKeys } from '../../reports/run-views.js';
import type { QueueRunOptions } from '../scenarios/classify/classify-queue.js';
import type { ScenarioCli } from './scenario-cli.js';
import type { EngineRegistry } from '../core/engine-registry.js';

/**
 * The run stack (engines, models, datasets, reports), imported only once
 * every flag has been checked: a refused command costs what `--help` costs.
 */
async function runStack() {
  const [recorded, classify, terminal, table, writeRun, cellFiles, views] = await Promise.all([
    import('../runs/history/recorded-run.js'),
    import('../scenarios/classify/classify-scenario.js'),
    import('../scenarios/classify/terminal-report.js'),
    import('../../reports/text-table.js'),
    import('../../reports/write-run.js'),
    import('../../reports/cell-files.js'),
    import('../../reports/run-views.js'),
  ]);
  return { ...recorded, ...classify, ...terminal, ...table, ...writeRun, ...cellFiles, ...views };
}

/** The report helpers the progress lines use (reports/run-views.ts). */
type Views = Pick<typeof import('../../reports/run-views.js'), 'cellFigures' | 'cellName'>;

/** `302 ms engine time per pass (256 batches)`, or what the cell saw when it has no whole pass. */
function passLine(c: CompletedCell, { cellFigures }: Views): string {
  const f = cellFigures(c);
  if (f.engine.passMs === null || f.pass === null) return `no whole pass (${f.partial ?? `${c.samples.runMs.length} batches`}), ${formatDuration(f.engine.meanMs)} mean`;
  return `${formatDuration(f.engine.passMs)} engine time per pass (${f.pass.batches} batches)`;
}

/**
 * One progress line, naming the cell by what varies in the sweep
 * (cell-names.ts), as every report line does. A round is a status the next
 * overwrites (it never reaches the report's scrollback); a finished cell
 * stays, its rounds summed up.
 */
function progressLine(event: ProgressEvent, varying: VaryingKeys, views: Views): string | { status: string } | null {
  const { cellName } = views;
  if (event.kind === 'cell-start') return null;
  if (event.kind === 'round-done') {
    const tail = event.meanMs === null ? 'no timed batches' : `${formatDuration(event.meanMs)} mean over ${event.batches} batches (${event.passes} whole ${event.passes === 1 ? 'pass' : 'passes'})`;
    return { status: `  round ${event.round + 1}/${event.rounds} ${cellName(event, varying)}: ${tail}` };
  }
  const c = event.cell;
  const rounds = c.state === 'completed' && c.rounds ? ` in ${c.rounds.length} ${c.rounds.length === 1 ? 'round' : 'rounds'}` : '';
  const state = c.state === 'completed' ? (c.interrupted ? ', interrupted' : '') + (c.verdict ? `, ${c.verdict.status}` : '') : '';
  const tail = c.state === 'completed' ? `${passLine(c, views)}${rounds}${state}` : `${c.state}: ${c.reason}`;
  return `[${event.index + 1}/${event.total}] ${cellName(c, varying)}: ${tail}`;
}

/** `--rounds` as given (a number, even a bad one), so the option check names the flag and the fix. */
function roundsFlag(args: ParsedArgs): number | undefined {
  const text = stringFlag(args, 'rounds');
  if (text === undefined) return undefined;
  const n = Number(text);
  if (text.trim() === '' || !Number.isFinite(n)) throw new UserError(`--rounds must be a whole number, got "${text}"`, `pass --rounds ${DEFAULT_ROUNDS} (the default), or any whole number of at least 1`);
  return n;
}

/**
 * `inferbench run`: validate every flag before loading anything, sweep, save
 * after each cell, print the tables and the paths written. Ctrl-C stops
 * after the current batch; a second Ctrl-C exits at once (files written
 * after the last finished cell stay intact).
 */
export async function runCommand(args: ParsedArgs, registry: EngineRegistry): Promise<number> {
  // Before anything else: an output folder that cannot be written (or hangs mkdir) is the first thing to report.
  await prepareOutputFolder(stringFlag(args, 'out') ?? DEFAULT_OUT_DIR);
  return runAndReport(runConfigFromArgs(args, registry), {}, registry, queueOptions(args), display(args));
}

/** `run`'s flags as a resolved config (also `tune`'s, which takes the same flags). */
export function runConfigFromArgs(args: ParsedArgs, registry: EngineRegistry): RunConfig {
  return resolveRunConfig(
    {
      models: repeatedFlag(args, 'model'),
      revision: stringFlag(args, 'revision'),
      dtypes: listFlag(args, 'dtype'),
      task: stringFlag(args, 'task') ?? null,
      saveOutputs: args.flags['save-outputs'] === true,
      skipBadRows: args.flags['skip-bad-rows'] === true,
      profile: args.flags.profile === true,
      architectures: repeatedFlag(args, 'config'),
      sequenceLengths: positiveIntListFlag(args, 'sequence-lengths', 'sequenceLengths'),
      engines: listFlag(args, 'engines'),
      browsers: listFlag(args, 'browsers') ?? null,
      engineOptions: repeatedFlag(args, 'engine-options'),
      dataset: stringFlag(args, 'dataset'),
      datasetConfig: stringFlag(args, 'dataset-config'),
      split: stringFlag(args, 'split'),
      batchSizes: positiveIntListFlag(args, 'batch-sizes', 'batchSizes'),
      limit: positiveIntFlag(args, 'limit', 'limit'),
      threads: positiveIntListFlag(args, 'threads', 'threads'),
      warmupBatches: countFlag(args, 'warmup', 'warmupBatches'),
      rounds: roundsFlag(args),
      textColumn: stringFlag(args, 'text-column'),
      labelColumn: stringFlag(args, 'label-column'),
      out: stringFlag(args, 'out'),
      png: args.flags['no-png'] !== true,
      stop: {
        minTimeMs: (numberFlag(args, 'min-time', 'stop.minTimeMs') ?? DEFAULT_STOP_RULE.minTimeMs / 1000) * 1000,
        minBatches: positiveIntFlag(args, 'min-batches', 'stop.minBatches') ?? DEFAULT_STOP_RULE.minBatches,
        maxTimeMs: (numberFlag(args, 'max-time', 'stop.maxTimeMs') ?? DEFAULT_STOP_RULE.maxTimeMs / 1000) * 1000,
      },
      ...(numberFlag(args, 'max-cv', 'maxCv') !== undefined ? { maxCv: numberFlag(args, 'max-cv', 'maxCv') } : {}),
      parity: {
        reference: stringFlag(args, 'reference') === 'none' ? null : (stringFlag(args, 'reference') ?? 'onnx-cpu'),
        tolerance: numberFlag(args, 'tolerance', 'parity.tolerance') ?? DEFAULT_PARITY_TOLERANCE,
      },
      isolate: args.flags['no-isolate'] !== true,
      ...(positiveIntFlag(args, 'calibration-rows', 'calibrationRows') !== undefined ? { calibrationRows: positiveIntFlag(args, 'calibration-rows', 'calibrationRows') } : {}),
      ...(stringFlag(args, 'calibration-method') !== undefined ? { calibrationMethod: stringFlag(args, 'calibration-method') } : {}),
    },
    { rounds: '--rounds', maxTime: '--max-time', batchSizes: '--batch-sizes', limit: '--limit', threads: '--threads', engines: '--engines', browsers: '--browsers', engineOptions: '--engine-options', reference: '--reference', calibrationRows: '--calibration-rows', calibrationMethod: '--calibration-method', dtypes: '--dtype', task: '--task', architectures: '--config', sequenceLengths: '--sequence-lengths' },
    registry,
  );
}

/**
 * `run`'s CLI (scenario-commands.ts): the command, and a rerun of a stored
 * config, validated again (an engine or option accepted then may not exist
 * in this version); a rerun runs on this machine, never on a queue.
 */
export const scenarioCli: ScenarioCli = {
  run: runCommand,
  rerun: (stored, { out, rerunOf }, args, registry) => runAndReport(resolveRunConfig({ ...(stored as RunConfig), out }, {}, registry), { rerunOf }, registry, undefined, display(args)),
};

/** `--wide`, `--quiet` and the width (terminal-width.ts), for run and rerun alike. */
export function display(args: ParsedArgs): ReportDisplay {
  return { ...reportWidth(args), quiet: args.flags['quiet'] === true, details: args.flags['details'] === true };
}

/** How the report and progress are shown. */
export interface ReportDisplay {
  readonly width: number;
  readonly wide: boolean;
  readonly quiet: boolean;
  /** `--details`: every table, not the one-screen report. */
  readonly details?: boolean;
}

/** `--queue` and its companions; the URL (it may hold a password) goes to the run, never into the config or history. */
function queueOptions(args: ParsedArgs): QueueRunOptions | undefined {
  const url = stringFlag(args, 'queue');
  const onEach = args.flags['on-each-worker'] === true;
  const workers = listFlag(args, 'workers');
  const serve = stringFlag(args, 'serve-models');
  const workerTimeout = numberFlag(args, 'worker-timeout', 'workerTimeoutMs');
  if (url === undefined) {
    if (onEach || workers || serve || workerTimeout !== undefined) throw new UserError('--on-each-worker, --workers, --serve-models and --worker-timeout need --queue', 'add --queue redis://HOST:PORT, or drop them for a local run');
    return undefined;
  }
  if (args.flags['no-isolate'] === true) throw new UserError('--no-isolate cannot be used with --queue', 'drop --no-isolate: workers always run each open in a fresh child process');
  if (args.flags.profile === true) throw new UserError('--profile cannot be used with --queue yet: workers do not run the profiled pass', 'drop --profile for the distributed sweep, or profile the engines in a local run (without --queue)');
  return {
    url, onEachWorker: onEach, workers: workers ?? null, serveModels: serve ?? null,
    ...(workerTimeout !== undefined ? { workerTimeoutMs: workerTimeout * 1000 } : {}),
    onNotice: (line) => process.stderr.write(`inferbench: ${line}\n`),
  };
}

/**
 * Runs a resolved config with the CLI's progress lines, Ctrl-C handling and
 * report, and records it in the history (`rerunOf` links a re-run to the
 * entry it repeats). Shared by `run` and `rerun`.
 */
export async function runAndReport(
  config: RunConfig,
  links: { readonly rerunOf?: number },
  registry: EngineRegistry,
  queue?: QueueRunOptions,
  shown: ReportDisplay = { ...reportWidth(null), quiet: false },
  /** `tune`'s additions: files written beside the run's once it ends, and lines after its report. */
  extra?: { readonly finished?: (outcome: RunOutcome<RunRecord>) => Promise<void>; readonly lines?: (record: RunRecord) => readonly string[] },
): Promise<number> {
  const stack = await runStack();
  const { executeRecorded, CLASSIFY_SCENARIO, renderTerminalReport, fitLines, runCharts, notDrawnLines, plannedKeys } = stack;
  let varying = plannedKeys({ models: 1, threads: config.threads.length, sequenceLengths: config.sequenceLengths?.length ?? 1, queue: queue !== undefined });
  return reportRecordedCommand<RunRecord, ProgressEvent>({
    unit: 'batch',
    out: config.out,
    registry,
    ...(links.rerunOf !== undefined ? { rerunOf: links.rerunOf } : {}),
    execute: async ({ progress, ...hooks }, record) => {
      const recorded = await executeRecorded(CLASSIFY_SCENARIO, config, {
        ...hooks,
        ...(queue ? { queue } : {}),
        onStart: (r) => {
          varying = plannedKeys({ models: r.models.length, threads: config.threads.length, sequenceLengths: config.sequenceLengths?.length ?? 1, queue: queue !== undefined });
          const models = r.models.length === 1 ? r.models[0]?.name : `${r.models.length} models (${r.models.map((m) => m.name).join(', ')})`;
          const seq = config.sequenceLengths ? `, sequence length ${config.sequenceLengths.join(', ')}` : '';
          progress.line(startLine(`inferbench: run ${r.id}: ${models}`, r.config['enginesResolved'] as string[], ` at batch ${config.batchSizes.join(', ')}${seq}`, progress.width));
        },
      }, record);
      await extra?.finished?.(recorded.outcome);
      return recorded;
    },
    progressLine: (e) => progressLine(e, varying, stack),
    quiet: shown.quiet,
    wide: shown.wide,
    render: (record, color, entryId) => renderTerminalReport(record, { color, width: shown.width, wide: shown.wide, details: shown.details === true, historyId: entryId }) + (extra?.lines ? `\n${extra.lines(record).join('\n')}\n` : ''),
    // The lines after the report fit the same width (a chart's reason runs long).
    after: (record) => (config.png ? (shown.wide ? notDrawnLines(runCharts(record)) : fitLines(notDrawnLines(runCharts(record)), shown.width)) : []),
  });
}
