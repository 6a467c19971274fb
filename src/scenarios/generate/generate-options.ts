/**
 * The options of `inferbench generate`: its flags with their help and ranges
 * (the ranges themselves are in core/option-ranges.ts, the one table the
 * CLI and the dashboard API both check). The generate scenario carries this
 * table (src/scenarios/generate/generate-scenario.ts) and the CLI builds the
 * command from the scenario registry, adding `--help` and the definitions
 * of the CLI-wide flags named here by slot.
 */
import { frozenOptions, type ScenarioOptions } from '../../core/flag-spec.js';
import { ENGINE_OPTIONS_FLAG, ENGINES_FLAG, NO_ISOLATE_FLAG, OUT_FLAG, THREADS_FLAG } from '../shared-options.js';

export const GENERATE_OPTIONS: ScenarioOptions = frozenOptions({
  summary: 'benchmark text generation: time to first token, time per output token, tokens/s and peak memory per engine',
  usage: 'inferbench generate [options]',
  flags: [
    { name: 'model', kind: 'value', arg: 'DIR', help: 'text-generation model folder in transformers.js layout (config.json, tokenizer.json, onnx/model.onnx); default: the embedded tiny GPT-2' },
    ENGINES_FLAG,
    ENGINE_OPTIONS_FLAG,
    { name: 'batch-sizes', kind: 'value', range: 'batchSizes', arg: '1,4', help: 'batch sizes to sweep; default 1,4' },
    { name: 'prompt-lengths', kind: 'value', range: 'promptLengths', arg: '32,128', help: 'prompt lengths in tokens (prompts are truncated or repeated to fit); default 32,128' },
    { name: 'new-tokens', kind: 'value', range: 'newTokens', arg: '32', help: 'new tokens per generate() call (max_new_tokens); default 32' },
    { name: 'runs', kind: 'value', range: 'runs', arg: 'N', help: 'measured generate() calls per cell in each round; default 3' },
    { name: 'rounds', kind: 'value', range: 'rounds', arg: 'N', help: 'rounds per cell, each a fresh engine open; the 95% CI and the VALID/NOISY verdict are across round means; default 3' },
    { name: 'warmup', kind: 'value', range: 'warmupRuns', arg: 'N', help: 'generate() calls at full output length before measuring; default 1' },
    THREADS_FLAG,
    { name: 'dataset', kind: 'value', arg: 'PATH', help: 'prompts as JSONL, CSV or TSV (or a folder of shards); default: the embedded default prompts' },
    { name: 'text-column', kind: 'value', arg: 'NAME', help: 'column holding the prompt; default: detected (text, sentence, review, content, tweet)' },
    { name: 'limit', kind: 'value', range: 'promptLimit', arg: 'N', help: 'prompt texts read from the dataset (cycled as needed); default 256' },
    { name: 'allow-early-stop', kind: 'boolean', help: 'let generation stop at EOS instead of fixing the output length (minNewTokens = maxNewTokens)' },
    OUT_FLAG,
    { name: 'no-png', kind: 'boolean', help: 'skip ttft.png and tpot.png' },
    { cliFlag: 'wide' },
    { cliFlag: 'details' },
    NO_ISOLATE_FLAG,
    { cliFlag: 'verbose' },
    { cliFlag: 'engine-module' },
  ],
  details:
    'Each cell runs --rounds rounds, each a fresh engine open with its own warmup and --runs timed calls, interleaved\n' +
    "across engines as in run; TTFT and TPOT get a 95% CI across round means and a VALID/NOISY verdict by run's rule.\n" +
    'Writes results.json (config, environment, every cell with raw per-token times), results.csv, results.parquet,\n' +
    'ttft.png and tpot.png. Ctrl-C stops after the current call and still writes what was measured.',
});
