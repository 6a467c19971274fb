/**
 * `inferbench tune`'s command spec: `run`'s flags (it runs the same
 * scenario, rung by rung) without those of a distributed run, whose
 * workers a search of many short rungs would only wait on.
 */
import { CLI_SLOT_FLAGS, HELP_FLAG, type CommandSpec, type FlagSpec } from './args.js';
import { isCliFlagSlot } from '../core/flag-spec.js';
import { CLASSIFY_OPTIONS } from '../scenarios/classify/classify-options.js';

/** Run flags tune does not take. */
const NOT_TUNE = new Set(['queue', 'on-each-worker', 'workers', 'serve-models', 'worker-timeout', 'save-outputs']);

export const TUNE_COMMAND: CommandSpec = {
  name: 'tune',
  summary: "search each engine's options for its fastest configuration whose outputs still agree (successive halving)",
  usage: "inferbench tune --engines a,b [--model M]... [--batch-sizes 1,8] [--engine-options 'ENGINE:key=v1|v2'] [run's options]",
  flags: [
    ...CLASSIFY_OPTIONS.flags
      .map((f): FlagSpec => (isCliFlagSlot(f) ? CLI_SLOT_FLAGS[f.cliFlag] : f))
      .filter((f) => !NOT_TUNE.has(f.name))
      .map((f) => (f.name === 'engine-options' ? { ...f, help: "more candidates for an engine, beside its frozen grid (`inferbench engines --options ID`): each combination of values is one; the defaults are always one" } : f)),
    HELP_FLAG,
  ],
  details:
    "Candidates per engine: its defaults, its frozen grid (docs/engine-options.md) and every combination --engine-options gives.\n" +
    'Successive halving: every candidate runs a short rung (the stop rule and rounds scaled down), the slower half of each\n' +
    "engine's candidates is dropped (and any that failed a cell or parity), the rest run a rung twice as long, until the last\n" +
    'rung runs the full stop rule. Earlier rungs are written under <out>/tune-rungs/; the last rung is a run like any other\n' +
    '(results.json, history) with tune.csv beside it: every candidate, the rung it reached and the one it was dropped in.',
};
