import { UserError } from '../core/errors.js';
import { enginesWithOptions } from './engine-options-flag.js';
import type { TrainOptimizer } from '../core/engine.js';
import { prepareOutputFolder } from '../core/output-folder.js';
import { formatDuration } from '../core/units.js';
import { parseArchitectures } from '../models/generated/arch-parse.js';
import { DEFAULT_OUT_DIR } from '../core/output-folder.js';
import type { TrainConfig } from '../scenarios/train/train-run.js';
import type { ScenarioCli } from './scenario-cli.js';
import type { TrainingProgress } from '../scenarios/train/training-sweep.js';
import { countFlag, listFlag, numberFlag, positiveIntFlag, positiveIntListFlag, repeatedFlag, stringFlag, type ParsedArgs } from './args.js';
import { reportRecordedCommand, startLine } from './run-exit.js';
import { reportWidth, screenLayout, type ScreenLayout } from './terminal-width.js';
import type { EngineRegistry } from '../core/engine-registry.js';

function progressLine(event: TrainingProgress): string | null {
  // Rounds are interleaved across engines, so a cell is done only in the last round: say where each round is.
  if (event.kind === 'cell-start') {
    const k = event.key;
    return `  round ${event.round + 1}/${event.rounds} ${k.engine} batch ${k.batchSize}${k.sequenceLength === null ? '' : ` seq ${k.sequenceLength}`}`;
  }
  const c = event.cell;
  const where = `${c.engine} batch ${c.batchSize}${c.sequenceLength === null ? '' : ` seq ${c.sequenceLength}`}`;
  const tail = c.state === 'completed'
    ? `step ${formatDuration(c.stepTime.mean)}, loss ${c.training.firstLoss.toFixed(4)} → ${c.training.lastLoss.toFixed(4)}${c.interrupted ? ', interrupted' : ''}`
    : `${c.state}: ${c.reason}`;
  return `[${event.index + 1}/${event.total}] ${where}: ${tail}`;
}

function optimizerFlag(args: ParsedArgs): TrainOptimizer | undefined {
  const raw = stringFlag(args, 'optimizer');
  if (raw === undefined) return undefined;
  const value = raw.trim().toLowerCase();
  if (value !== 'sgd' && value !== 'adam') throw new UserError(`--optimizer must be sgd or adam, got "${raw}"`, 'pass --optimizer sgd or --optimizer adam');
  return value;
}

/**
 * `inferbench train`: check every flag before loading anything, sweep
 * engines × sequence lengths × batch sizes through the run driver, save
 * after each cell, print the TRAIN – SPEED / MEMORY / LOSS tables.
 */
export async function trainCommand(args: ParsedArgs, registry: EngineRegistry): Promise<number> {
  await prepareOutputFolder(stringFlag(args, 'out') ?? DEFAULT_OUT_DIR);
  const steps = positiveIntFlag(args, 'steps', 'steps');
  const warmSteps = countFlag(args, 'warm-steps', 'warmSteps');
  const learningRate = numberFlag(args, 'learning-rate', 'learningRate');
  const rounds = positiveIntFlag(args, 'rounds', 'rounds');
  const threads = positiveIntFlag(args, 'threads', 'threads');
  const optimizer = optimizerFlag(args);
  const batchSizes = positiveIntListFlag(args, 'batch-sizes', 'batchSizes');
  const sequenceLengths = positiveIntListFlag(args, 'sequence-lengths', 'sequenceLengths');
  const architectures = parseArchitectures(repeatedFlag(args, 'config') ?? []);
  // The run stack loads only now, every flag read: a refused command costs what `--help` costs.
  const { trainConfig } = await import('../scenarios/train/train-run.js');
  const config = trainConfig({
    models: repeatedFlag(args, 'model') ?? [],
    architectures,
    engines: enginesWithOptions(args, registry),
    ...(batchSizes ? { batchSizes } : {}),
    sequenceLengths: sequenceLengths ?? null,
    ...(steps !== undefined ? { steps } : {}),
    ...(warmSteps !== undefined ? { warmSteps } : {}),
    ...(optimizer ? { optimizer } : {}),
    ...(learningRate !== undefined ? { learningRate } : {}),
    ...(rounds !== undefined ? { rounds } : {}),
    threads: threads ?? null,
    dataset: stringFlag(args, 'dataset') ?? null,
    textColumn: stringFlag(args, 'text-column') ?? null,
    labelColumn: stringFlag(args, 'label-column') ?? null,
    ...(stringFlag(args, 'out') !== undefined ? { out: stringFlag(args, 'out') as string } : {}),
    png: args.flags['no-png'] !== true,
    isolate: args.flags['no-isolate'] !== true,
  });
  return trainAndReport(config, {}, registry, screenLayout(args));
}

/** `train`'s CLI (scenario-commands.ts): the command, and a rerun of a stored config, checked again as the command's flags are. */
export const scenarioCli: ScenarioCli = {
  run: trainCommand,
  rerun: async (stored, { out, rerunOf }, args, registry) => {
    const { trainConfig } = await import('../scenarios/train/train-run.js');
    return trainAndReport(trainConfig({ ...(stored as TrainConfig), out }), { rerunOf }, registry, screenLayout(args));
  },
};

/** Runs a train config with progress lines, Ctrl-C handling and the report, recorded in the history. Shared by `train` and `rerun`. */
async function trainAndReport(config: TrainConfig, links: { readonly rerunOf?: number }, registry: EngineRegistry, layout: ScreenLayout = reportWidth(null)): Promise<number> {
  const [{ executeRecorded }, { TRAIN_SCENARIO }, { trainingEnginesFix }, { renderTrainingReport }, { trainingCharts }, { notDrawnLines }] = await Promise.all([
    import('../runs/history/recorded-run.js'),
    import('../scenarios/train/train-scenario.js'),
    import('../scenarios/train/train-run.js'),
    import('../scenarios/train/training-report.js'),
    import('../scenarios/train/training-files.js'),
    import('../../reports/cell-files.js'),
  ]);
  return reportRecordedCommand({
    unit: 'training step',
    out: config.out,
    registry,
    ...(links.rerunOf !== undefined ? { rerunOf: links.rerunOf } : {}),
    execute: ({ progress, ...hooks }, record) =>
      executeRecorded(TRAIN_SCENARIO, config, {
        ...hooks,
        names: 'flag',
        onStart: (r) => {
          progress.line(startLine(`inferbench: train ${r.id}: ${r.models.map((m) => m.name).join(', ')}`, r.config['enginesResolved'] as string[], '', progress.width));
        },
      }, record),
    progressLine,
    wide: layout.wide,
    render: (record, color, entryId) => renderTrainingReport(record, { color, ...layout, historyId: entryId }),
    after: (record) => (config.png ? notDrawnLines(trainingCharts(record)) : []),
    nothingMeasuredFix: (record) => trainingEnginesFix(record, registry),
  });
}
