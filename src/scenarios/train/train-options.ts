/**
 * The options of `inferbench train`: its flags with their help and ranges
 * (the ranges themselves are in core/option-ranges.ts, the one table the
 * CLI and the dashboard API both check). The train scenario carries this
 * table (src/scenarios/train/train-scenario.ts) and the CLI builds the
 * command from the scenario registry, adding `--help` and the definitions
 * of the CLI-wide flags named here by slot.
 */
import { frozenOptions, type ScenarioOptions } from '../../core/flag-spec.js';
import { ENGINE_OPTIONS_FLAG, OUT_FLAG, TEXT_COLUMN_FLAG, THREADS_FLAG } from '../shared-options.js';

export const TRAIN_OPTIONS: ScenarioOptions = frozenOptions({
  summary: 'benchmark training steps (forward + cross-entropy + backward + optimizer update): time, memory and loss per engine',
  usage: 'inferbench train [options]',
  flags: [
    { name: 'model', kind: 'value', arg: 'DIR|ID', repeatable: true, help: 'sequence-classification model folder or Hub id, as for run; repeat for several; default: the embedded tiny BERT' },
    { name: 'config', kind: 'value', arg: 'SPEC', repeatable: true, help: 'random-init architecture, as for run (preset, key=value pairs or a JSON file); repeat for several' },
    { name: 'engines', kind: 'value', arg: 'a,b', help: 'engines to run; engines that cannot train (ONNX Runtime, transformers.js) give skipped cells with the reason; default: every available engine' },
    ENGINE_OPTIONS_FLAG,
    { name: 'batch-sizes', kind: 'value', range: 'batchSizes', arg: '8,16', help: 'batch sizes to sweep; default 8' },
    { name: 'sequence-lengths', kind: 'value', range: 'sequenceLengths', arg: '32,128', help: 'train on synthetic ids of these fixed lengths instead of the dataset text (padded to the longest row); labels still come from the dataset' },
    { name: 'steps', kind: 'value', range: 'steps', arg: 'N', help: 'measured steps per round; default 20' },
    { name: 'warm-steps', kind: 'value', range: 'warmSteps', arg: 'N', help: 'steps before the measured ones in each round (logged, their losses kept, not in the statistics); default 2' },
    { name: 'optimizer', kind: 'value', arg: 'sgd|adam', help: 'optimizer of the update; default sgd' },
    { name: 'learning-rate', kind: 'value', range: 'learningRate', arg: 'X', help: 'learning rate; default 0.01' },
    { name: 'dataset', kind: 'value', arg: 'PATH|ID', help: 'labelled dataset (file, folder or Hub id, as for run); its first rows are used in order; default: the embedded sentiment set' },
    TEXT_COLUMN_FLAG,
    { name: 'label-column', kind: 'value', arg: 'NAME', help: 'column holding each row\'s class (index or label name); default: detected (label, labels, sentiment, target)' },
    { name: 'rounds', kind: 'value', range: 'rounds', arg: 'N', help: 'rounds per cell, each restarting from the initial weights; the 95% CI is across round means; default 3' },
    THREADS_FLAG,
    OUT_FLAG,
    { name: 'no-png', kind: 'boolean', help: 'skip step-time.png' },
    { cliFlag: 'wide' },
    { cliFlag: 'details' },
    { name: 'no-isolate', kind: 'boolean', help: 'run every engine in this process instead of one child process per model × engine' },
    { cliFlag: 'verbose' },
    { cliFlag: 'engine-module' },
  ],
  details:
    'Prints TRAIN – SPEED (time per step, samples/s), TRAIN – MEMORY (peak RSS, tfjs tensor bytes) and TRAIN – LOSS (first\n' +
    'and last loss). Writes results.json (every step: times, peak RSS, tf.memory() before and after, loss; training.losses\n' +
    'on each cell from the first step, warm steps included), results.csv, results.parquet and step-time.png.\n' +
    'The tfjs engines train the translated ONNX graph (float initializers become tf.Variables); onnxruntime-node has no\n' +
    'training API, so ONNX Runtime and transformers.js cells are skipped with that reason. Ctrl-C keeps what was measured.',
});
