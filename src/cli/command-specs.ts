import { QUIET_FLAG, VERBOSE_FLAG, WIDE_FLAG, type CommandSpec, type FlagSpec } from './args.js';
export type { CommandSpec } from './args.js';
import { HISTORY_COMMANDS } from './history-specs.js';
import { flagRangeHelp } from '../core/option-ranges.js';
import { DEFAULT_ROUNDS, DEFAULT_ROWS, DEFAULT_STOP_RULE, FULL_SWEEP_ROWS } from '../core/stop-rule.js';

const HELP: FlagSpec = { name: 'help', kind: 'boolean', help: 'show this help' };

/** The model flags of `run`, which `inspect` reads the same way. */
const MODEL_FLAG: FlagSpec = { name: 'model', kind: 'value', arg: 'DIR|ID', repeatable: true, help: 'Hugging Face model folder (config.json, tokenizer.json, onnx/model.onnx) or Hub id (org/name); repeat for several; default: the embedded tiny BERT' };
const REVISION_FLAG: FlagSpec = { name: 'revision', kind: 'value', arg: 'REV', help: 'Hub branch, tag or commit of --model Hub ids; default main' };
const CONFIG_FLAG: FlagSpec = { name: 'config', kind: 'value', arg: 'SPEC', repeatable: true, help: 'random-init architecture: a preset (tiny, bert-base, bert-384-hid, bert-6-lay, minilm: an all-MiniLM-L6-v2-shaped embedding model), key=value pairs (hidden=384,layers=6,heads=6) or a JSON file; repeat for several' };

export const RUN_COMMAND: CommandSpec = {
  name: 'run',
  summary: 'benchmark a model on every available engine at several batch sizes',
  usage: 'inferbench run [options]',
  flags: [
    MODEL_FLAG,
    REVISION_FLAG,
    { name: 'dtype', kind: 'value', arg: 'fp32,q8', help: 'precision variants as transformers.js names them (fp32, fp16, q8, q4, int8, uint8, q4f16, bnb4…) plus q8-static, each its own row; fp16, q8, int8, uint8, q4 and q8-static are written from onnx/model.onnx when the model lacks them' },
    { name: 'calibration-rows', kind: 'value', range: 'calibrationRows', arg: 'N', help: 'rows at the start of the dataset that --dtype q8-static is calibrated on; every cell then measures the rows after them; default 128' },
    { name: 'calibration-method', kind: 'value', arg: 'minmax|percentile', help: 'how q8-static turns calibrated activations into ranges: minmax (onnxruntime MinMax) or percentile (99.99% of |x|); default minmax' },
    CONFIG_FLAG,
    { name: 'task', kind: 'value', arg: 'TASK', help: 'text-classification or feature-extraction (sentence embeddings, pooled and normalised as the model declares); default: detected from each model folder' },
    { name: 'sequence-lengths', kind: 'value', range: 'sequenceLengths', arg: '8,128', help: 'run synthetic inputs of these fixed lengths instead of dataset text (batch × sequence grid)' },
    { name: 'engines', kind: 'value', arg: 'a,b', help: 'engines to run (see `inferbench engines`); default: every available engine' },
    { name: 'batch-sizes', kind: 'value', range: 'batchSizes', arg: '1,8,32', help: 'batch sizes to sweep; default 1,8 (the default run fits 90 s; 1,8,32 is the full sweep)' },
    { name: 'dataset', kind: 'value', arg: 'PATH|ID', help: 'Parquet, Arrow, JSONL, CSV or TSV file, a folder of shards or save_to_disk folder, or a Hugging Face dataset id (org/name); default: the embedded sentiment set' },
    { name: 'dataset-config', kind: 'value', arg: 'NAME', help: 'config (subset) of a Hub dataset; default: its only config, else "default"' },
    { name: 'split', kind: 'value', arg: 'NAME', help: 'split of a Hub dataset or DatasetDict folder; default: train' },
    { name: 'text-column', kind: 'value', arg: 'NAME', help: 'column holding the text; default: detected (text, sentence, review, content, tweet)' },
    { name: 'label-column', kind: 'value', arg: 'NAME', help: 'column holding the label; default: detected' },
    { name: 'limit', kind: 'value', range: 'limit', arg: 'N', help: `rows streamed per cell, the same first rows for every engine; default ${DEFAULT_ROWS} (the default run fits 90 s; the full sweep is --limit ${FULL_SWEEP_ROWS})` },
    { name: 'warmup', kind: 'value', range: 'warmupBatches', arg: 'N', help: 'untimed batches at least per round; every round first runs one untimed warm pass over every row, this only adds batches when a pass holds fewer; 0: the warm pass alone; default 2' },
    { name: 'rounds', kind: 'value', arg: 'N', help: `independent rounds per cell, each a fresh engine load (a fresh process unless --no-isolate), interleaved across engines; the 95% CI is across round means; the time budget is split across rounds; default ${DEFAULT_ROUNDS}` },
    { name: 'threads', kind: 'value', range: 'threads', arg: '1,2,4', help: 'intra-op thread counts to sweep; engines that cannot set them are skipped; default: engine default' },
    { name: 'min-time', kind: 'value', range: 'stop.minTimeMs', arg: 'S', help: `measure each cell for at least S seconds of engine time in all rounds together, in whole passes over the rows; default ${DEFAULT_STOP_RULE.minTimeMs / 1000}` },
    { name: 'min-batches', kind: 'value', range: 'stop.minBatches', arg: 'N', help: `and at least N batches in all rounds together; default ${DEFAULT_STOP_RULE.minBatches}` },
    { name: 'max-time', kind: 'value', range: 'stop.maxTimeMs', arg: 'S', help: `at most S seconds of wall time per cell, split evenly across its rounds, warm passes included (a warm pass may take half its round); a cell that cannot finish one timed pass is NOISY and runs one round; default ${DEFAULT_STOP_RULE.maxTimeMs / 1000}` },
    { name: 'max-cv', kind: 'value', range: 'maxCv', arg: 'X', help: 'coefficient of variation of per-batch latency above which a cell is NOISY (a 95% CI across rounds wider than ±5% of the mean is always NOISY); default 1.0' },
    { name: 'reference', kind: 'value', arg: 'ENGINE', help: 'engine whose outputs every cell is compared with; `none` turns parity off; default onnx-cpu' },
    { name: 'tolerance', kind: 'value', range: 'parity.tolerance', arg: 'X', help: 'largest absolute output difference from the reference that passes (embeddings: cosine at least 1 - X); default 1e-4' },
    { name: 'save-outputs', kind: 'boolean', help: 'write outputs.parquet in the run folder: per row (index, text hash) the embedding or logits, as a fixed-size list of float32, of the reference engine and of every cell that failed parity (up to the parity row cap, 1024 rows); one outputs-<model>.parquet per model when their vectors differ in length' },
    { name: 'no-isolate', kind: 'boolean', help: 'run every engine in this process instead of one child process per engine load' },
    { name: 'out', kind: 'value', arg: 'DIR', help: 'output folder; a run writes <out>/<run-id>/; default ./inferbench-out' },
    { name: 'no-png', kind: 'boolean', help: 'skip the charts (comparison, core-scaling, batch-scaling, latency-distribution .png)' },
    WIDE_FLAG,
    QUIET_FLAG,
    { name: 'queue', kind: 'value', arg: 'URL', help: 'run the sweep on `inferbench worker`s through this Redis (redis://[USER:PASSWORD@]HOST:PORT, rediss:// for TLS); one job per model × engine × threads' },
    { name: 'on-each-worker', kind: 'boolean', help: 'with --queue: run the whole sweep on every worker (or on --workers), for a cross-hardware table; default: spread the jobs over the workers' },
    { name: 'workers', kind: 'value', arg: 'NAME,NAME', help: 'with --queue: only these workers (their --name); default: every live worker' },
    { name: 'serve-models', kind: 'value', arg: 'HOST:PORT', help: 'with --queue: serve local model folders and dataset files to the workers on this address, read-only and by sha256' },
    VERBOSE_FLAG,
    { name: 'worker-timeout', kind: 'value', arg: 'S', help: 'with --queue: seconds jobs wait for a worker to be alive (one died mid-job, none is left) before their cells are recorded as errored; default 300', range: 'workerTimeoutMs' },
    HELP,
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
};

export const WORKER_COMMAND: CommandSpec = {
  name: 'worker',
  summary: 'take sweep jobs from a Redis queue (BullMQ) and run them on this machine, for `run --queue`',
  usage: 'inferbench worker --queue redis://HOST:PORT [--name NAME] [--concurrency 1]',
  flags: [
    { name: 'queue', kind: 'value', arg: 'URL', help: 'Redis the coordinator uses: redis://[USER:PASSWORD@]HOST:PORT[/DB], rediss:// for TLS' },
    { name: 'name', kind: 'value', arg: 'NAME', help: 'this worker\'s name in every table (unique on the queue); default: the hostname' },
    { name: 'concurrency', kind: 'value', arg: 'N', help: 'jobs run at once; default 1 (one load at a time keeps timings clean)' },
    { name: 'engines', kind: 'value', arg: 'a,b', help: 'engines this worker offers; the others show as unavailable on it; default: every available engine' },
    { name: 'stall-timeout', kind: 'value', arg: 'S', help: 'seconds a job of a worker that stopped answering (killed, cut off) waits before another worker takes it; default 30' },
    { name: 'engine-module', kind: 'value', arg: 'PATH', repeatable: true, help: 'also register the engines a module exports as `engines` (plug-ins and test engines); never taken from a job' },
    VERBOSE_FLAG,
    HELP,
  ],
  details:
    'Registers its fingerprint (CPU, cores, RAM, GPU, OS, Node and engine versions) and its engines, then takes one job at a time.\n' +
    'A job is one load group (model × engine × threads with its batch sizes and rounds); each load runs in a fresh child process.\n' +
    'Jobs are plain data of one schema: anything else is refused with the reason. Ctrl-C or SIGTERM finishes the current job.',
};

export const ENGINES_COMMAND: CommandSpec = {
  name: 'engines',
  summary: 'list every engine with its availability, the reason when unavailable and how to enable it',
  usage: 'inferbench engines [--json]',
  flags: [{ name: 'json', kind: 'boolean', help: 'print JSON' }, HELP],
};

export const INSPECT_COMMAND: CommandSpec = {
  name: 'inspect',
  summary: "list a model's ops, opset, inputs and outputs, and which engines can run it here",
  usage: 'inferbench inspect [--model DIR|ID|FILE.onnx] [--config SPEC] [--engines a,b] [--json]',
  flags: [
    { ...MODEL_FLAG, arg: 'DIR|ID|FILE', help: `${MODEL_FLAG.help.replace('; default: the embedded tiny BERT', '')}, an .onnx file, or a folder with a tfjs GraphModel (model.json) or a SavedModel (saved_model.pb); default: the embedded tiny BERT, as for run` },
    REVISION_FLAG,
    CONFIG_FLAG,
    { name: 'engines', kind: 'value', arg: 'a,b', help: 'engines to judge (see `inferbench engines`); only these are probed; default: every engine' },
    { name: 'json', kind: 'boolean', help: 'print JSON (an array when several models are given)' },
    HELP,
  ],
  details:
    'tfjs translator engines list the ONNX ops their graph translation lacks; the GraphModel and SavedModel engines say whether\n' +
    'the exporter maps the graph; ONNX Runtime engines say whether they are available. For a GraphModel or SavedModel folder:\n' +
    'its signature, its TensorFlow ops, and which engines run that format.',
};

export const EXPORT_COMMAND: CommandSpec = {
  name: 'export',
  summary: "write a model's ONNX graph as a tfjs GraphModel or a TensorFlow SavedModel, to run on tfjs's own executors",
  usage: 'inferbench export --model DIR|ID --format graph-model|saved-model --out DIR',
  flags: [
    { name: 'model', kind: 'value', arg: 'DIR|ID', help: 'Hugging Face model folder (config.json, tokenizer.json, onnx/model.onnx) or Hub id (org/name)' },
    { name: 'revision', kind: 'value', arg: 'REV', help: 'Hub branch, tag or commit of a --model Hub id; default main' },
    { name: 'format', kind: 'value', arg: 'graph-model|saved-model', help: 'graph-model: model.json + weight shards for tfjs-converter\'s loadGraphModel; saved-model: saved_model.pb for tf.node.loadSavedModel and TensorFlow' },
    { name: 'out', kind: 'value', arg: 'DIR', help: 'folder to write (must not exist, or be empty); it becomes a model folder: config and tokenizer are copied beside the graph' },
    HELP,
  ],
  details:
    'The exporter maps each ONNX op to TensorFlow ops in TypeScript (no Python); batch and sequence dims stay dynamic.\n' +
    'A GraphModel holds int64 as int32 (tfjs has no int64); a SavedModel keeps int64. An op with no mapping, or a quantized\n' +
    'graph, is refused with the op and the node. `inferbench run --model DIR` then runs the folder on tfjs-<backend>-graph-model\n' +
    'or tfjs-node-saved-model; the run engines export on their own (into the cache) when a model has only an ONNX graph.',
};

export const COMPARE_COMMAND: CommandSpec = {
  name: 'compare',
  summary: "compare two runs cell by cell; a change is called only when a t-test on the rounds' means supports it",
  usage: 'inferbench compare <runA> <runB> [--min-effect X] [--out DIR] [--no-png]   (each a run folder, its results.json, or a history id)',
  flags: [
    { name: 'min-effect', kind: 'value', arg: 'X', help: 'smallest change |B/A − 1| ever called faster or slower, as a fraction; default 0.05 (5%)' },
    { name: 'out', kind: 'value', arg: 'DIR', help: 'folder whose history ids are used, and where the chart compare-<runA>-vs-<runB>.png goes; default ./inferbench-out' },
    { name: 'no-png', kind: 'boolean', help: 'print the table only, without the chart' },
    HELP,
  ],
  details:
    'Cells are matched by model, engine, batch size, threads actually used (read back from the engine) and sequence\n' +
    "length. Each round's mean engine time per batch is one observation; B/A is the ratio of the means of round means,\n" +
    "with a 95% interval on the log scale. \"faster\" or \"slower\" is called only when the two-sided t-test of log(B/A)\n" +
    "on the round means gives p < 0.05 (exactly when that interval excludes 1) AND |B/A − 1| ≥ --min-effect;\n" +
    'otherwise "no significant difference", with why. A run recorded before rounds existed counts as one round and\n' +
    'can never support a call. Cells measured on a noisy host (other processes above 25% of CPU time, net of\n' +
    "inferbench's own, or CPU steal > 5%) are named in a warning. Each side's VALID/NOISY verdict is shown beside the call.\n" +
    'Two `generate` runs are compared with their TTFT and TPOT ratios and no faster/slower call; their chart draws each\n' +
    "side's TTFT and TPOT per matched cell with its 95% interval across rounds.",
};

export const GENERATE_COMMAND: CommandSpec = {
  name: 'generate',
  summary: 'benchmark text generation: time to first token, time per output token, tokens/s and peak memory per engine',
  usage: 'inferbench generate [options]',
  flags: [
    { name: 'model', kind: 'value', arg: 'DIR', help: 'text-generation model folder in transformers.js layout (config.json, tokenizer.json, onnx/model.onnx); default: the embedded tiny GPT-2' },
    { name: 'engines', kind: 'value', arg: 'a,b', help: 'engines to run (see `inferbench engines`); default: every available engine' },
    { name: 'batch-sizes', kind: 'value', range: 'batchSizes', arg: '1,4', help: 'batch sizes to sweep; default 1,4' },
    { name: 'prompt-lengths', kind: 'value', range: 'promptLengths', arg: '32,128', help: 'prompt lengths in tokens (prompts are truncated or repeated to fit); default 32,128' },
    { name: 'new-tokens', kind: 'value', range: 'newTokens', arg: '32', help: 'new tokens per generate() call (max_new_tokens); default 32' },
    { name: 'runs', kind: 'value', range: 'runs', arg: 'N', help: 'measured generate() calls per cell in each round; default 3' },
    { name: 'rounds', kind: 'value', range: 'rounds', arg: 'N', help: 'rounds per cell, each a fresh engine load; the 95% CI and the VALID/NOISY verdict are across round means; default 3' },
    { name: 'warmup', kind: 'value', range: 'warmupRuns', arg: 'N', help: 'generate() calls at full output length before measuring; default 1' },
    { name: 'threads', kind: 'value', range: 'threads', arg: 'N', help: 'intra-op threads; engines that cannot set them are skipped; default: engine default' },
    { name: 'dataset', kind: 'value', arg: 'PATH', help: 'prompts as JSONL, CSV or TSV (or a folder of shards); default: the embedded default prompts' },
    { name: 'text-column', kind: 'value', arg: 'NAME', help: 'column holding the prompt; default: detected (text, sentence, review, content, tweet)' },
    { name: 'limit', kind: 'value', range: 'promptLimit', arg: 'N', help: 'prompt texts read from the dataset (cycled as needed); default 256' },
    { name: 'allow-early-stop', kind: 'boolean', help: 'let generation stop at EOS instead of fixing the output length (minNewTokens = maxNewTokens)' },
    { name: 'out', kind: 'value', arg: 'DIR', help: 'output folder; a run writes <out>/<run-id>/; default ./inferbench-out' },
    { name: 'no-png', kind: 'boolean', help: 'skip ttft.png and tpot.png' },
    WIDE_FLAG,
    { name: 'no-isolate', kind: 'boolean', help: 'run every engine in this process instead of one child process per engine load' },
    VERBOSE_FLAG,
    HELP,
  ],
  details:
    'Each cell runs --rounds rounds, each a fresh engine load with its own warmup and --runs timed calls, interleaved\n' +
    "across engines as in run; TTFT and TPOT get a 95% CI across round means and a VALID/NOISY verdict by run's rule.\n" +
    'Writes results.json (config, environment, every cell with raw per-token times), results.csv, results.parquet,\n' +
    'ttft.png and tpot.png. Ctrl-C stops after the current call and still writes what was measured.',
};

export const TRAIN_COMMAND: CommandSpec = {
  name: 'train',
  summary: 'benchmark training steps (forward + cross-entropy + backward + optimizer update): time, memory and loss per engine',
  usage: 'inferbench train [options]',
  flags: [
    { name: 'model', kind: 'value', arg: 'DIR|ID', repeatable: true, help: 'sequence-classification model folder or Hub id, as for run; repeat for several; default: the embedded tiny BERT' },
    { name: 'config', kind: 'value', arg: 'SPEC', repeatable: true, help: 'random-init architecture, as for run (preset, key=value pairs or a JSON file); repeat for several' },
    { name: 'engines', kind: 'value', arg: 'a,b', help: 'engines to run; engines that cannot train (ONNX Runtime, transformers.js) give skipped cells with the reason; default: every available engine' },
    { name: 'batch-sizes', kind: 'value', range: 'batchSizes', arg: '8,16', help: 'batch sizes to sweep; default 8' },
    { name: 'sequence-lengths', kind: 'value', range: 'sequenceLengths', arg: '32,128', help: 'train on synthetic ids of these fixed lengths instead of the dataset text (padded to the longest row); labels still come from the dataset' },
    { name: 'steps', kind: 'value', range: 'steps', arg: 'N', help: 'measured steps per round; default 20' },
    { name: 'warm-steps', kind: 'value', range: 'warmSteps', arg: 'N', help: 'steps before the measured ones in each round (logged, their losses kept, not in the statistics); default 2' },
    { name: 'optimizer', kind: 'value', arg: 'sgd|adam', help: 'optimizer of the update; default sgd' },
    { name: 'learning-rate', kind: 'value', range: 'learningRate', arg: 'X', help: 'learning rate; default 0.01' },
    { name: 'dataset', kind: 'value', arg: 'PATH|ID', help: 'labelled dataset (file, folder or Hub id, as for run); its first rows are used in order; default: the embedded sentiment set' },
    { name: 'text-column', kind: 'value', arg: 'NAME', help: 'column holding the text; default: detected' },
    { name: 'label-column', kind: 'value', arg: 'NAME', help: 'column holding each row\'s class (index or label name); default: detected (label, labels, sentiment, target)' },
    { name: 'rounds', kind: 'value', range: 'rounds', arg: 'N', help: 'rounds per cell, each restarting from the initial weights; the 95% CI is across round means; default 3' },
    { name: 'threads', kind: 'value', range: 'threads', arg: 'N', help: 'intra-op threads; engines that cannot set them are skipped; default: engine default' },
    { name: 'out', kind: 'value', arg: 'DIR', help: 'output folder; a run writes <out>/<run-id>/; default ./inferbench-out' },
    { name: 'no-png', kind: 'boolean', help: 'skip step-time.png' },
    WIDE_FLAG,
    { name: 'no-isolate', kind: 'boolean', help: 'run every engine in this process instead of one child process per model × engine' },
    VERBOSE_FLAG,
    HELP,
  ],
  details:
    'Prints TRAIN – SPEED (time per step, samples/s), TRAIN – MEMORY (peak RSS, tfjs tensor bytes) and TRAIN – LOSS (first\n' +
    'and last loss). Writes results.json (every step: times, peak RSS, tf.memory() before and after, loss; training.losses\n' +
    'on each cell from the first step, warm steps included), results.csv, results.parquet and step-time.png.\n' +
    'The tfjs engines train the translated ONNX graph (float initializers become tf.Variables); onnxruntime-node has no\n' +
    'training API, so ONNX Runtime and transformers.js cells are skipped with that reason. Ctrl-C keeps what was measured.',
};

export const LOAD_COMMAND: CommandSpec = {
  name: 'load',
  summary: 'latency under load: open-loop requests at set rates through a dynamic batcher, p99 against a latency goal, and the peak rate that meets it',
  usage: 'inferbench load (--rates 50,100,200 | --find-peak --slo p99=50ms) [options]',
  flags: [
    { name: 'model', kind: 'value', arg: 'DIR|ID', repeatable: true, help: 'text-classification or feature-extraction (sentence-embedding) model folder or Hub id, as for run; repeat for several; default: the embedded tiny BERT' },
    { name: 'engines', kind: 'value', arg: 'a,b', help: 'engines to serve from (see `inferbench engines`); default: every available Node engine' },
    { name: 'threads', kind: 'value', range: 'threads', arg: 'N', help: 'intra-op threads; engines that cannot set them are skipped; default: engine default' },
    { name: 'dataset', kind: 'value', arg: 'PATH|ID', help: 'rows the requests carry, one row per request in order, cycled (file, folder or Hub id, as for run); default: the embedded sentiment set' },
    { name: 'text-column', kind: 'value', arg: 'NAME', help: 'column holding the text; default: detected' },
    { name: 'limit', kind: 'value', range: 'limit', arg: 'N', help: 'rows read from the dataset and cycled through; default 256' },
    { name: 'rates', kind: 'value', range: 'rates', arg: '50,100', help: 'offered rates to measure, requests per second (decimals allowed)' },
    { name: 'arrival', kind: 'value', arg: 'poisson|constant|gamma', help: 'how arrivals are spaced: Poisson (exponential gaps, LoadGen), constant, or gamma with --burstiness (vLLM); default poisson' },
    { name: 'burstiness', kind: 'value', range: 'burstiness', arg: 'X', help: "gamma shape as vLLM defines it: 1 is Poisson, below 1 burstier, above 1 more even; implies --arrival gamma; default 1" },
    { name: 'seed', kind: 'value', range: 'seed', arg: 'N', help: 'seed of the arrival schedule, drawn in advance (every engine gets the same arrivals; rerun replays them); default 1' },
    { name: 'duration', kind: 'value', range: 'durationMs', arg: 'S', help: 'minimum span of measured arrivals per rate, seconds (LoadGen min_duration); default 5' },
    { name: 'min-queries', kind: 'value', range: 'minQueries', arg: 'N', help: 'minimum measured requests per rate (LoadGen min_query_count); default 100' },
    { name: 'warmup', kind: 'value', range: 'warmupMs', arg: 'S', help: 'seconds of arrivals at each rate before the measured ones, left out of every figure; default 1' },
    { name: 'max-batch', kind: 'value', range: 'maxBatch', arg: 'N', help: 'dynamic batcher: most requests per engine call; default 1 (no batching)' },
    { name: 'max-wait', kind: 'value', range: 'maxWaitMs', arg: 'MS', help: 'dynamic batcher: longest a request waits for its batch to fill, ms from its arrival (Triton max_queue_delay); needs --max-batch; default 0' },
    { name: 'slo', kind: 'value', arg: 'pNN=LIMIT', help: 'latency goal, e.g. p99=50ms (p50, p90, p95, p99 or p99.9; limit in ms or s): goodput, share over it, pass/fail per rate' },
    { name: 'find-peak', kind: 'boolean', help: 'search the highest rate whose goal percentile stays within the limit (needs --slo): bracket by doubling or halving, then bisect to 5%' },
    { name: 'rounds', kind: 'value', range: 'rounds', arg: 'N', help: 'rounds, each a fresh engine load interleaved across engines, each measuring every rate and searching the peak again; default 1' },
    { name: 'out', kind: 'value', arg: 'DIR', help: 'output folder; a run writes <out>/<run-id>/; default ./inferbench-out' },
    { name: 'no-png', kind: 'boolean', help: 'skip hockey-stick.png and latency-cdf.png' },
    WIDE_FLAG,
    { name: 'no-isolate', kind: 'boolean', help: 'run every engine in this process instead of one child process per engine load' },
    HELP,
  ],
  details:
    'One request is one dataset row. Latency is completion minus the SCHEDULED arrival: when an engine call blocks the event\n' +
    "loop (onnxruntime-node's run() does), requests arriving meanwhile wait and their latency shows it (no coordinated omission).\n" +
    'Each rate is VALID, overloaded or too short (minimum duration and requests, achieved within 2% of offered, queue not\n' +
    'growing). A probe that is clearly failing its goal ends early (binomial test at 99% confidence, after LoadGen).\n' +
    'Writes results.json (every request of every rate), results.csv and results.parquet (one row per engine × rate × round,\n' +
    'scenario=server), samples.parquet (one row per request), hockey-stick.png and latency-cdf.png.',
};

export const COMMANDS: readonly CommandSpec[] = [RUN_COMMAND, GENERATE_COMMAND, TRAIN_COMMAND, LOAD_COMMAND, COMPARE_COMMAND, ENGINES_COMMAND, WORKER_COMMAND, INSPECT_COMMAND, EXPORT_COMMAND, ...HISTORY_COMMANDS];

/** Help text of one command. */
export function commandHelp(spec: CommandSpec): string {
  const width = Math.max(...spec.flags.map((f) => `--${f.name}${f.arg ? ` ${f.arg}` : ''}`.length));
  const lines = spec.flags.map((f) => `  ${`--${f.name}${f.arg ? ` ${f.arg}` : ''}`.padEnd(width)}  ${f.help}${f.range ? `; ${flagRangeHelp(f.range)}` : ''}`);
  return `${spec.summary}\n\nUsage: ${spec.usage}\n\nOptions:\n${lines.join('\n')}\n${spec.details ? `\n${spec.details}\n` : ''}`;
}

/** Top-level help listing the commands. */
export function mainHelp(): string {
  const width = Math.max(...COMMANDS.map((c) => c.name.length));
  return (
    'inferbench: run one transformer model on every inference engine you have and report what was measured.\n\n' +
    'Usage: inferbench <command> [options]\n\nCommands:\n' +
    COMMANDS.map((c) => `  ${c.name.padEnd(width)}  ${c.summary}`).join('\n') +
    '\n\nRun `inferbench <command> --help` for its options. With no command, `inferbench` shows this help.\n'
  );
}
