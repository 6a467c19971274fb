/**
 * The options of `inferbench run`: its flags with their help and ranges
 * (the ranges themselves are in core/option-ranges.ts, the one table the
 * CLI and the dashboard API both check). The run scenario carries this
 * table (src/runs/classify-scenario.ts) and the CLI builds the
 * command from the scenario registry, adding `--help` and the definitions
 * of the CLI-wide flags named here by slot.
 */
import { frozenOptions, type ScenarioOptions } from '../../core/flag-spec.js';
import { ENGINE_OPTIONS_FLAG, ENGINES_FLAG, NO_ISOLATE_FLAG, OUT_FLAG } from '../shared-options.js';
import { BROWSERS_FLAG } from './browsers-flag.js';
import { DEFAULT_ROUNDS, DEFAULT_ROWS, DEFAULT_STOP_RULE, FULL_SWEEP_ROWS } from '../../core/stop-rule.js';
import { CONFIG_FLAG, MODEL_FLAG, REVISION_FLAG } from '../../models/model-flags.js';

export const CLASSIFY_OPTIONS: ScenarioOptions = frozenOptions({
  summary: 'benchmark a model on every available engine at several batch sizes',
  usage: 'inferbench run [options]',
  flags: [
    MODEL_FLAG,
    REVISION_FLAG,
    { name: 'dtype', kind: 'value', arg: 'fp32,q8', help: 'precision variants as transformers.js names them (fp32, fp16, q8, q4, int8, uint8, q4f16, bnb4…) plus q8-static, each its own row; fp16, q8, int8, uint8, q4 and q8-static are written from onnx/model.onnx when the model lacks them' },
    { name: 'calibration-rows', kind: 'value', range: 'calibrationRows', arg: 'N', help: 'rows at the start of the dataset that --dtype q8-static is calibrated on; every cell then measures the rows after them; default 128' },
    { name: 'calibration-method', kind: 'value', arg: 'minmax|percentile', help: 'how q8-static turns calibrated activations into ranges: minmax (onnxruntime MinMax) or percentile (99.99% of |x|); default minmax' },
    CONFIG_FLAG,
    { name: 'task', kind: 'value', arg: 'text-classification|feature-extraction', help: 'text-classification or feature-extraction (sentence embeddings, pooled and normalised as the model declares); default: detected from each model folder' },
    { name: 'sequence-lengths', kind: 'value', range: 'sequenceLengths', arg: '8,128', help: 'run synthetic inputs of these fixed lengths instead of dataset text (batch × sequence grid)' },
    ENGINES_FLAG,
    BROWSERS_FLAG,
    ENGINE_OPTIONS_FLAG,
    { name: 'batch-sizes', kind: 'value', range: 'batchSizes', arg: '1,8,32', help: 'batch sizes to sweep; default 1,8 (the default run fits 90 s; 1,8,32 is the full sweep)' },
    { name: 'dataset', kind: 'value', arg: 'PATH|ID', help: 'Parquet, Arrow, JSONL, CSV or TSV file, a folder of shards or save_to_disk folder, or a Hugging Face dataset id (org/name); default: the embedded sentiment set' },
    { name: 'dataset-config', kind: 'value', arg: 'NAME', help: 'config (subset) of a Hub dataset; default: its only config, else "default"' },
    { name: 'split', kind: 'value', arg: 'NAME', help: 'split of a Hub dataset or DatasetDict folder; default: train' },
    { name: 'text-column', kind: 'value', arg: 'NAME', help: 'column holding the text; default: detected (text, sentence, review, content, tweet)' },
    { name: 'label-column', kind: 'value', arg: 'NAME', help: 'column holding the label; default: detected' },
    { name: 'limit', kind: 'value', range: 'limit', arg: 'N', help: `rows streamed per cell, the same first rows for every engine; default ${DEFAULT_ROWS} (the default run fits 90 s; the full sweep is --limit ${FULL_SWEEP_ROWS})` },
    { name: 'warmup', kind: 'value', range: 'warmupBatches', arg: 'N', help: 'untimed batches at least per round; every round first runs one untimed warm pass over every row, this only adds batches when a pass holds fewer; 0: the warm pass alone; default 2' },
    { name: 'rounds', kind: 'value', range: 'rounds', arg: 'N', help: `independent rounds per cell, each a fresh engine open (a fresh process unless --no-isolate), interleaved across engines; the 95% CI is across round means; the time budget is split across rounds; default ${DEFAULT_ROUNDS}` },
    { name: 'threads', kind: 'value', range: 'threads', arg: '1,2,4', help: 'intra-op thread counts to sweep; engines that cannot set them are skipped; default: engine default' },
    { name: 'min-time', kind: 'value', range: 'stop.minTimeMs', arg: 'S', help: `measure each cell for at least S seconds of engine time in all rounds together, in whole passes over the rows; default ${DEFAULT_STOP_RULE.minTimeMs / 1000}` },
    { name: 'min-batches', kind: 'value', range: 'stop.minBatches', arg: 'N', help: `and at least N batches in all rounds together; default ${DEFAULT_STOP_RULE.minBatches}` },
    { name: 'max-time', kind: 'value', range: 'stop.maxTimeMs', arg: 'S', help: `at most S seconds of wall time per cell, split evenly across its rounds, warm passes included (a warm pass may take half its round); a cell that cannot finish one timed pass is NOISY and runs one round; default ${DEFAULT_STOP_RULE.maxTimeMs / 1000}` },
    { name: 'max-cv', kind: 'value', range: 'maxCv', arg: 'X', help: 'coefficient of variation of per-batch latency above which a cell is NOISY (a 95% CI across rounds wider than ±5% of the mean is always NOISY); default 1.0' },
    { name: 'reference', kind: 'value', arg: 'ENGINE|none', help: 'engine whose outputs every cell is compared with; `none` turns parity off; default onnx-cpu' },
    { name: 'tolerance', kind: 'value', range: 'parity.tolerance', arg: 'X', help: 'largest absolute output difference from the reference that passes (embeddings: cosine at least 1 - X); default 1e-4' },
    { name: 'skip-bad-rows', kind: 'boolean', help: 'leave out STS pairs that cannot be scored (a missing, non-numeric or non-finite score, an empty or non-string sentence) instead of refusing the data set; the run notes how many and which' },
    { name: 'save-outputs', kind: 'boolean', help: 'write outputs.parquet in the run folder: per row (index, text hash) the embedding or logits, as a fixed-size list of float32, of the reference engine and of every cell that failed parity (up to the parity row cap, 1024 rows); one outputs-<model>.parquet per model when their vectors differ in length' },
    { name: 'profile', kind: 'boolean', help: 'after each cell\'s timed rounds, one untimed pass with the engine\'s own op-level instrument (ORT\'s profiler, per-node wall time, tf.profile): profile.csv, profile.parquet, time-breakdown.png and a WHERE THE TIME GOES table; the timed figures are unchanged' },
    NO_ISOLATE_FLAG,
    OUT_FLAG,
    { name: 'no-png', kind: 'boolean', help: 'skip the charts (comparison, core-scaling, batch-scaling, latency-distribution .png)' },
    { cliFlag: 'wide' },
    { cliFlag: 'details' },
    { cliFlag: 'quiet' },
    { name: 'queue', kind: 'value', arg: 'URL', help: 'run the sweep on `inferbench worker`s through this Redis (redis://[USER:PASSWORD@]HOST:PORT, rediss:// for TLS); one job per model × engine × threads' },
    { name: 'on-each-worker', kind: 'boolean', help: 'with --queue: run the whole sweep on every worker (or on --workers), for a cross-hardware table; default: spread the jobs over the workers' },
    { name: 'workers', kind: 'value', arg: 'NAME,NAME', help: 'with --queue: only these workers (their --name); default: every live worker' },
    { name: 'serve-models', kind: 'value', arg: 'HOST:PORT', help: 'with --queue: serve local model folders and dataset files to the workers on this address, read-only and by sha256' },
    { cliFlag: 'verbose' },
    { cliFlag: 'engine-module' },
    { name: 'worker-timeout', kind: 'value', arg: 'S', help: 'with --queue: seconds jobs wait for a worker to be alive (one died mid-job, none is left) before their cells are recorded as errored; default 300', range: 'workerTimeoutMs' },
  ],
  details:
    'Every number has a range (shown above), checked before anything is loaded; the dashboard API checks the same ranges\n' +
    '(src/core/option-ranges.ts).\n' +
    'Writes results.json (config, environment, every cell with raw samples), results.csv and the charts comparison.png,\n' +
    'core-scaling.png (with --threads 1,2,4), batch-scaling.png and latency-distribution.png; a chart whose view has\n' +
    'fewer than 2 points is not drawn, and the run says why.\n' +
    'Also results.parquet and results.arrow (the CSV rows, typed), samples.parquet and samples.arrow (one row per measured batch).\n' +
    'Hub datasets honour HF_ENDPOINT, HF_TOKEN, HF_HOME / HF_HUB_CACHE and HF_HUB_OFFLINE=1.\n' +
    'Ctrl-C stops after the current batch and still writes what was measured.',
});
