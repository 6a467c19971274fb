/**
 * `inferbench run` on the command line (the classification scenario's
 * `cli`, see ../scenario-registry.ts): its config from the flags (also
 * `tune`'s, which takes the same flags), `--queue` and its companions as
 * run hooks, and what the command prints of a run: the start line, a
 * status per round and a line per cell, named by what varies in the sweep,
 * the terminal report and the charts not drawn. The CLI
 * (src/cli/scenario-cli.ts) runs it as it runs every scenario.
 */
import { formatDuration } from '../../core/units.js';
import { DEFAULT_ROUNDS, DEFAULT_STOP_RULE } from '../../core/stop-rule.js';
import { UserError } from '../../core/errors.js';
import { DEFAULT_PARITY_TOLERANCE } from '../../core/parity.js';
import type { CompletedCell, RunRecord } from '../../core/results.js';
import type { EngineRegistry } from '../../core/engine-registry.js';
import type { VaryingKeys } from '../../../reports/run-views.js';
import type { ScenarioCommandLine, ScenarioFlags } from '../scenario-registry.js';
import type { ProgressEvent } from './benchmark-options.js';
import type { QueueRunOptions } from './classify-queue.js';
import { resolveRunConfig } from './resolve-run-config.js';
import type { RunConfig } from './run-config.js';

/** The report helpers the progress lines use (reports/run-views.ts). */
type Views = Pick<typeof import('../../../reports/run-views.js'), 'cellFigures' | 'cellName'>;

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
function roundsFlag(flags: ScenarioFlags): number | undefined {
  const text = flags.text('rounds');
  if (text === undefined) return undefined;
  const n = Number(text);
  if (text.trim() === '' || !Number.isFinite(n)) throw new UserError(`--rounds must be a whole number, got "${text}"`, `pass --rounds ${DEFAULT_ROUNDS} (the default), or any whole number of at least 1`);
  return n;
}

/** `run`'s flags as a resolved config (also `tune`'s, which takes the same flags). */
export function classifyConfigFromFlags(flags: ScenarioFlags, registry: EngineRegistry): RunConfig {
  return resolveRunConfig(
    {
      models: flags.repeated('model'),
      revision: flags.text('revision'),
      dtypes: flags.list('dtype'),
      task: flags.text('task') ?? null,
      saveOutputs: flags.given('save-outputs'),
      skipBadRows: flags.given('skip-bad-rows'),
      profile: flags.given('profile'),
      architectures: flags.repeated('config'),
      sequenceLengths: flags.positiveIntList('sequence-lengths'),
      engines: flags.list('engines'),
      browsers: flags.list('browsers') ?? null,
      engineOptions: flags.repeated('engine-options'),
      dataset: flags.text('dataset'),
      datasetConfig: flags.text('dataset-config'),
      split: flags.text('split'),
      batchSizes: flags.positiveIntList('batch-sizes'),
      limit: flags.positiveInt('limit'),
      threads: flags.positiveIntList('threads'),
      warmupBatches: flags.count('warmup'),
      rounds: roundsFlag(flags),
      textColumn: flags.text('text-column'),
      labelColumn: flags.text('label-column'),
      out: flags.text('out'),
      png: !flags.given('no-png'),
      stop: {
        minTimeMs: (flags.number('min-time') ?? DEFAULT_STOP_RULE.minTimeMs / 1000) * 1000,
        minBatches: flags.positiveInt('min-batches') ?? DEFAULT_STOP_RULE.minBatches,
        maxTimeMs: (flags.number('max-time') ?? DEFAULT_STOP_RULE.maxTimeMs / 1000) * 1000,
      },
      ...(flags.number('max-cv') !== undefined ? { maxCv: flags.number('max-cv') } : {}),
      parity: {
        reference: flags.text('reference') === 'none' ? null : (flags.text('reference') ?? 'onnx-cpu'),
        tolerance: flags.number('tolerance') ?? DEFAULT_PARITY_TOLERANCE,
      },
      isolate: !flags.given('no-isolate'),
      ...(flags.positiveInt('calibration-rows') !== undefined ? { calibrationRows: flags.positiveInt('calibration-rows') } : {}),
      ...(flags.text('calibration-method') !== undefined ? { calibrationMethod: flags.text('calibration-method') } : {}),
    },
    { rounds: '--rounds', maxTime: '--max-time', batchSizes: '--batch-sizes', limit: '--limit', threads: '--threads', engines: '--engines', browsers: '--browsers', engineOptions: '--engine-options', reference: '--reference', calibrationRows: '--calibration-rows', calibrationMethod: '--calibration-method', dtypes: '--dtype', task: '--task', architectures: '--config', sequenceLengths: '--sequence-lengths' },
    registry,
  );
}

/** `--queue` and its companions; the URL (it may hold a password) goes to the run, never into the config or history. */
function queueOptions(flags: ScenarioFlags): QueueRunOptions | undefined {
  const url = flags.text('queue');
  const onEach = flags.given('on-each-worker');
  const workers = flags.list('workers');
  const serve = flags.text('serve-models');
  const workerTimeout = flags.number('worker-timeout');
  if (url === undefined) {
    if (onEach || workers || serve || workerTimeout !== undefined) throw new UserError('--on-each-worker, --workers, --serve-models and --worker-timeout need --queue', 'add --queue redis://HOST:PORT, or drop them for a local run');
    return undefined;
  }
  if (flags.given('no-isolate')) throw new UserError('--no-isolate cannot be used with --queue', 'drop --no-isolate: workers always run each open in a fresh child process');
  if (flags.given('profile')) throw new UserError('--profile cannot be used with --queue yet: workers do not run the profiled pass', 'drop --profile for the distributed sweep, or profile the engines in a local run (without --queue)');
  return {
    url, onEachWorker: onEach, workers: workers ?? null, serveModels: serve ?? null,
    ...(workerTimeout !== undefined ? { workerTimeoutMs: workerTimeout * 1000 } : {}),
    onNotice: (line) => process.stderr.write(`inferbench: ${line}\n`),
  };
}

/** `run --queue`'s hook: the sweep goes to the queue's workers, through the queue launcher the run is handed. */
function queueHooks(flags: ScenarioFlags): { readonly queue?: QueueRunOptions } {
  const options = queueOptions(flags);
  return options ? { queue: options } : {};
}

/**
 * `run`'s command line, and a rerun of a stored config, validated again
 * (an engine or option accepted then may not exist in this version); a
 * rerun runs on this machine, never on a queue.
 */
export const commandLine: ScenarioCommandLine<RunRecord, RunConfig, ProgressEvent> = {
  unit: 'batch',
  fromFlags: async (flags, registry) => classifyConfigFromFlags(flags, registry),
  runHooks: queueHooks,
  fromStored: async (stored, out, registry) => resolveRunConfig({ ...stored, out }, {}, registry),
  printer: async (config, _registry, hooks) => {
    // The run's modules (engines, models, datasets, reports) load only now, every flag checked: a refused command costs what `--help` costs.
    const [{ renderTerminalReport }, { fitLines }, { runCharts }, { notDrawnLines }, views] = await Promise.all([
      import('./terminal-report.js'),
      import('../../../reports/text-table.js'),
      import('../../../reports/write-run.js'),
      import('../../../reports/cell-files.js'),
      import('../../../reports/run-views.js'),
    ]);
    const { plannedKeys } = views;
    const queue = hooks['queue'] !== undefined;
    let varying = plannedKeys({ models: 1, threads: config.threads.length, sequenceLengths: config.sequenceLengths?.length ?? 1, queue });
    return {
      start: (r) => {
        varying = plannedKeys({ models: r.models.length, threads: config.threads.length, sequenceLengths: config.sequenceLengths?.length ?? 1, queue });
        const models = r.models.length === 1 ? r.models[0]?.name : `${r.models.length} models (${r.models.map((m) => m.name).join(', ')})`;
        const seq = config.sequenceLengths ? `, sequence length ${config.sequenceLengths.join(', ')}` : '';
        return { head: `inferbench: run ${r.id}: ${models}`, tail: ` at batch ${config.batchSizes.join(', ')}${seq}` };
      },
      progress: (e) => progressLine(e, varying, views),
      report: (record, o) => renderTerminalReport(record, o),
      // The lines after the report fit the same width (a chart's reason runs long).
      after: (record, layout) => (config.png ? (layout.wide ? notDrawnLines(runCharts(record)) : fitLines(notDrawnLines(runCharts(record)), layout.width)) : []),
    };
  },
};
