/**
 * The options of `inferbench load`: its flags with their help and ranges
 * (the ranges themselves are in core/option-ranges.ts, the one table the
 * CLI and the dashboard API both check). The load scenario carries this
 * table (src/scenarios/load/load-scenario.ts) and the CLI builds the
 * command from the scenario registry, adding `--help` and the definitions
 * of the CLI-wide flags named here by slot.
 */
import { frozenOptions, type ScenarioOptions } from '../../core/flag-spec.js';
import { ENGINE_OPTIONS_FLAG, NO_ISOLATE_FLAG, OUT_FLAG, TEXT_COLUMN_FLAG, THREADS_FLAG } from '../shared-options.js';

export const LOAD_OPTIONS: ScenarioOptions = frozenOptions({
  summary: 'latency under load: open-loop requests at set rates through a dynamic batcher, p99 against a latency goal, and the peak rate that meets it',
  usage: 'inferbench load (--rates 50,100,200 | --find-peak --slo p99=50ms) [options]',
  flags: [
    { name: 'model', kind: 'value', arg: 'DIR|ID', repeatable: true, help: 'text-classification or feature-extraction (sentence-embedding) model folder or Hub id, as for run; repeat for several; default: the embedded tiny BERT' },
    { name: 'engines', kind: 'value', arg: 'a,b', help: 'engines to serve from (see `inferbench engines`); default: every available Node engine' },
    ENGINE_OPTIONS_FLAG,
    THREADS_FLAG,
    { name: 'dataset', kind: 'value', arg: 'PATH|ID', help: 'rows the requests carry, one row per request in order, cycled (file, folder or Hub id, as for run); default: the embedded sentiment set' },
    TEXT_COLUMN_FLAG,
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
    { name: 'rounds', kind: 'value', range: 'rounds', arg: 'N', help: 'rounds, each a fresh engine open interleaved across engines, each measuring every rate and searching the peak again; default 1' },
    OUT_FLAG,
    { name: 'no-png', kind: 'boolean', help: 'skip hockey-stick.png and latency-cdf.png' },
    { cliFlag: 'wide' },
    { cliFlag: 'details' },
    { cliFlag: 'engine-module' },
    NO_ISOLATE_FLAG,
  ],
  details:
    'One request is one dataset row. Latency is completion minus the SCHEDULED arrival: when an engine call blocks the event\n' +
    "loop (onnxruntime-node's run() does), requests arriving meanwhile wait and their latency shows it (no coordinated omission).\n" +
    'Each rate is VALID, overloaded or too short (minimum duration and requests, achieved within 2% of offered, queue not\n' +
    'growing). A probe that is clearly failing its goal ends early (binomial test at 99% confidence, after LoadGen).\n' +
    'Writes results.json (every request of every rate), results.csv and results.parquet (one row per engine × rate × round,\n' +
    'scenario=server), samples.parquet (one row per request), hockey-stick.png and latency-cdf.png.',
});
