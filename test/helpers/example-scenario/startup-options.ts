/**
 * The options of `inferbench startup`, the example scenario of
 * docs/development.md ("Adding a scenario"): its flags with their help and
 * ranges, a frozen table as a built-in's `<name>-options.ts` is. The CLI
 * builds the command's parsing and help from it (src/cli/command-specs.ts),
 * and the dashboard derives the request's JSON fields from it
 * (src/scenarios/request-fields.ts), so the two cannot drift apart.
 */
import { frozenOptions, type ScenarioOptions } from '../../../src/core/flag-spec.js';
import { NO_ISOLATE_FLAG, OUT_FLAG } from '../../../src/scenarios/shared-options.js';

export const STARTUP_OPTIONS: ScenarioOptions = frozenOptions({
  summary: "time each engine's start: its first probe (import of its runtime and hardware check) in a fresh process, once per round (an example scenario defined in test/)",
  usage: 'inferbench startup --engines a,b [--rounds N] [options]',
  flags: [
    { name: 'engines', kind: 'value', arg: 'a,b', help: 'engines to start (see `inferbench engines`); default onnx-cpu' },
    { name: 'rounds', kind: 'value', range: 'rounds', arg: 'N', help: 'fresh processes per engine, each timing one start; default 2' },
    OUT_FLAG,
    NO_ISOLATE_FLAG,
    { cliFlag: 'wide' },
    { cliFlag: 'quiet' },
  ],
  details: 'Writes results.json, results.csv and results.parquet (one row per engine). In process (--no-isolate) the engine was already started\nby the run itself, so each figure times a warm probe, and the row says so.',
});
