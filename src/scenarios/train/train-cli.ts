/**
 * `inferbench train` on the command line (the train scenario's `cli`, see
 * ../scenario-registry.ts): its config from the flags, every flag checked
 * before the run's modules load, and what the command prints of a run: the
 * start line, a line per round and per cell, the TRAIN tables and the
 * charts not drawn. The CLI (src/cli/scenario-cli.ts) runs it as it runs
 * every scenario.
 */
import { UserError } from '../../core/errors.js';
import type { TrainOptimizer } from '../../core/engine.js';
import { formatDuration } from '../../core/units.js';
import { parseArchitectures } from '../../models/generated/arch-parse.js';
import type { ScenarioCommandLine, ScenarioFlags } from '../scenario-registry.js';
import type { TrainConfig } from './train-run.js';
import type { TrainingRunRecord } from './training-results.js';
import type { TrainingProgress } from './training-sweep.js';

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

function optimizerFlag(flags: ScenarioFlags): TrainOptimizer | undefined {
  const raw = flags.text('optimizer');
  if (raw === undefined) return undefined;
  const value = raw.trim().toLowerCase();
  if (value !== 'sgd' && value !== 'adam') throw new UserError(`--optimizer must be sgd or adam, got "${raw}"`, 'pass --optimizer sgd or --optimizer adam');
  return value;
}

/**
 * Every flag of `inferbench train`, checked in the order the command has
 * always checked them (the first bad one is the one reported), then the
 * config: sweep engines × sequence lengths × batch sizes.
 */
async function fromFlags(flags: ScenarioFlags): Promise<TrainConfig> {
  const steps = flags.positiveInt('steps');
  const warmSteps = flags.count('warm-steps');
  const learningRate = flags.number('learning-rate');
  const rounds = flags.positiveInt('rounds');
  const threads = flags.positiveInt('threads');
  const optimizer = optimizerFlag(flags);
  const batchSizes = flags.positiveIntList('batch-sizes');
  const sequenceLengths = flags.positiveIntList('sequence-lengths');
  const architectures = parseArchitectures(flags.repeated('config') ?? []);
  // The run stack loads only now, every flag read: a refused command costs what `--help` costs.
  const { trainConfig } = await import('./train-run.js');
  const out = flags.text('out');
  return trainConfig({
    models: flags.repeated('model') ?? [],
    architectures,
    engines: flags.engines(),
    ...(batchSizes ? { batchSizes } : {}),
    sequenceLengths: sequenceLengths ?? null,
    ...(steps !== undefined ? { steps } : {}),
    ...(warmSteps !== undefined ? { warmSteps } : {}),
    ...(optimizer ? { optimizer } : {}),
    ...(learningRate !== undefined ? { learningRate } : {}),
    ...(rounds !== undefined ? { rounds } : {}),
    threads: threads ?? null,
    dataset: flags.text('dataset') ?? null,
    textColumn: flags.text('text-column') ?? null,
    labelColumn: flags.text('label-column') ?? null,
    ...(out !== undefined ? { out } : {}),
    png: !flags.given('no-png'),
    isolate: !flags.given('no-isolate'),
  });
}

/** `train`'s command line, and a rerun of a stored config, checked again as the command's flags are. */
export const commandLine: ScenarioCommandLine<TrainingRunRecord, TrainConfig, TrainingProgress> = {
  unit: 'training step',
  fromFlags,
  fromStored: async (stored, out) => (await import('./train-run.js')).trainConfig({ ...stored, out }),
  printer: async (config, registry) => {
    const [{ trainingEnginesFix }, { renderTrainingReport }, { trainingCharts }, { notDrawnLines }] = await Promise.all([
      import('./train-run.js'),
      import('./training-report.js'),
      import('./training-files.js'),
      import('../../../reports/cell-files.js'),
    ]);
    return {
      start: (r) => ({ head: `inferbench: train ${r.id}: ${r.models.map((m) => m.name).join(', ')}` }),
      progress: progressLine,
      report: (record, options) => renderTrainingReport(record, options),
      after: (record) => (config.png ? notDrawnLines(trainingCharts(record)) : []),
      nothingMeasuredFix: (record) => trainingEnginesFix(record, registry),
    };
  },
};
