/**
 * The allowed range of every number a user can set, in one table shared by
 * the CLI (flags), the dashboard API (JSON fields) and the library
 * (resolveRunConfig). Without upper bounds `--limit 99999999999999999999`
 * failed mid-run with a wrong fix and `stop.minTimeMs: 1e12` queued a run
 * that blocked the dashboard queue for 30 years; a range checked at the
 * door turns both into one clear message before anything is loaded.
 *
 * Values are stored in the unit of the JSON field (`stop.minTimeMs` in
 * milliseconds); a flag that takes another unit (`--min-time` in seconds)
 * names its scale, so the message speaks the unit the user typed.
 */
import { availableParallelism } from 'node:os';
import { UserError } from './errors.js';
import { lookupName, nameTable } from './name-lookup.js';

/** One number option: where users set it, its bounds and unit. */
export interface OptionRange {
  /** CLI flag, e.g. `--limit`. */
  readonly flag: string;
  /** Field name in a run config / API body, e.g. `limit` or `stop.minTimeMs`. */
  readonly field: string;
  /** Smallest allowed value, in the field's unit. */
  readonly min: number;
  /** Largest allowed value, in the field's unit. */
  readonly max: number;
  /** True when `min` itself is excluded (a CV of 0 would call every cell NOISY). */
  readonly minExclusive?: boolean;
  /** Whole numbers only. */
  readonly integer: boolean;
  /** Unit of the field's values, for messages and help (`rows`, `ms`). */
  readonly unit: string;
  /** How many field units one flag unit is (1000 when the flag takes seconds and the field milliseconds). */
  readonly flagScale?: number;
  /** Unit of the flag's values when it differs from the field's. */
  readonly flagUnit?: string;
  /** Where the maximum comes from when it is not a fixed number, e.g. `4 × the 2 cores of this machine`. */
  readonly maxBasis?: string;
}

const HOUR_MS = 3_600_000;

/**
 * More intra-op threads than 4 × the cores only oversubscribes the machine;
 * the bound is this machine's, so the CLI, the API and `--help` all say it.
 */
const CORES = availableParallelism();

/**
 * Every ranged option, by field name. Bounds are generous enough for any
 * real benchmark on one machine and small enough that a typo cannot make a
 * run that never ends or allocates without limit.
 */
export const OPTION_RANGES = nameTable({
  batchSizes: { flag: '--batch-sizes', field: 'batchSizes', min: 1, max: 4096, integer: true, unit: 'rows per batch' },
  limit: { flag: '--limit', field: 'limit', min: 1, max: 10_000_000, integer: true, unit: 'rows' },
  warmupBatches: { flag: '--warmup', field: 'warmupBatches', min: 0, max: 10_000, integer: true, unit: 'batches' },
  threads: { flag: '--threads', field: 'threads', min: 1, max: 4 * CORES, integer: true, unit: 'threads', maxBasis: `4 × the ${CORES} cores of this machine` },
  rounds: { flag: '--rounds', field: 'rounds', min: 1, max: 100, integer: true, unit: 'rounds' },
  calibrationRows: { flag: '--calibration-rows', field: 'calibrationRows', min: 1, max: 1_000_000, integer: true, unit: 'rows' },
  sequenceLengths: { flag: '--sequence-lengths', field: 'sequenceLengths', min: 1, max: 65_536, integer: true, unit: 'tokens' },
  'stop.minTimeMs': { flag: '--min-time', field: 'stop.minTimeMs', min: 0, max: HOUR_MS, integer: false, unit: 'ms', flagScale: 1000, flagUnit: 's' },
  'stop.maxTimeMs': { flag: '--max-time', field: 'stop.maxTimeMs', min: 0, max: HOUR_MS, integer: false, unit: 'ms', flagScale: 1000, flagUnit: 's' },
  'stop.minBatches': { flag: '--min-batches', field: 'stop.minBatches', min: 1, max: 1_000_000, integer: true, unit: 'batches' },
  workerTimeoutMs: { flag: '--worker-timeout', field: 'workerTimeoutMs', min: 1000, max: 7 * 24 * HOUR_MS, integer: false, unit: 'ms', flagScale: 1000, flagUnit: 's' },
  maxCv: { flag: '--max-cv', field: 'maxCv', min: 0, minExclusive: true, max: 100, integer: false, unit: '(fraction)' },
  'parity.tolerance': { flag: '--tolerance', field: 'parity.tolerance', min: 0, max: 1e6, integer: false, unit: '(absolute difference)' },
  // generate
  promptLengths: { flag: '--prompt-lengths', field: 'promptLengths', min: 1, max: 65_536, integer: true, unit: 'tokens' },
  newTokens: { flag: '--new-tokens', field: 'newTokens', min: 1, max: 65_536, integer: true, unit: 'tokens' },
  runs: { flag: '--runs', field: 'runs', min: 1, max: 100_000, integer: true, unit: 'generate() calls' },
  warmupRuns: { flag: '--warmup', field: 'warmupRuns', min: 0, max: 10_000, integer: true, unit: 'generate() calls' },
  promptLimit: { flag: '--limit', field: 'promptLimit', min: 1, max: 10_000_000, integer: true, unit: 'prompts' },
  // train
  steps: { flag: '--steps', field: 'steps', min: 1, max: 100_000, integer: true, unit: 'steps' },
  warmSteps: { flag: '--warm-steps', field: 'warmSteps', min: 0, max: 10_000, integer: true, unit: 'steps' },
  learningRate: { flag: '--learning-rate', field: 'learningRate', min: 0, minExclusive: true, max: 1e3, integer: false, unit: '(learning rate)' },
  // load
  rates: { flag: '--rates', field: 'rates', min: 0, minExclusive: true, max: 100_000, integer: false, unit: 'requests/s' },
  burstiness: { flag: '--burstiness', field: 'burstiness', min: 0, minExclusive: true, max: 1000, integer: false, unit: '(gamma shape)' },
  seed: { flag: '--seed', field: 'seed', min: 0, max: 4_294_967_295, integer: true, unit: '(seed)' },
  durationMs: { flag: '--duration', field: 'durationMs', min: 0, max: HOUR_MS, integer: false, unit: 'ms', flagScale: 1000, flagUnit: 's' },
  minQueries: { flag: '--min-queries', field: 'minQueries', min: 1, max: 1_000_000, integer: true, unit: 'requests' },
  warmupMs: { flag: '--warmup', field: 'warmupMs', min: 0, max: HOUR_MS, integer: false, unit: 'ms', flagScale: 1000, flagUnit: 's' },
  maxBatch: { flag: '--max-batch', field: 'maxBatch', min: 1, max: 4096, integer: true, unit: 'requests per batch' },
  maxWaitMs: { flag: '--max-wait', field: 'maxWaitMs', min: 0, max: 60_000, integer: false, unit: 'ms' },
} satisfies Record<string, OptionRange>);

/** A field name of OPTION_RANGES. */
export type RangedOption = keyof typeof OPTION_RANGES;

/** Who is asking: the CLI names flags in flag units, the API and library name fields. */
export type RangeAudience = 'flag' | 'field';

/** The range of a field; throws for a name not in the table (a programming error, not a user one). */
export function optionRange(field: string): OptionRange {
  const range = lookupName(OPTION_RANGES, field);
  if (range === undefined) throw new Error(`no range for option ${field}`);
  return range;
}

function show(n: number): string {
  return Number.isInteger(n) ? String(n) : String(Number(n.toPrecision(6)));
}

/** `between 1 and 4096 rows per batch` in the audience's unit. */
export function rangeText(range: OptionRange, audience: RangeAudience = 'field'): string {
  const scale = audience === 'flag' ? (range.flagScale ?? 1) : 1;
  const unit = audience === 'flag' ? (range.flagUnit ?? range.unit) : range.unit;
  const low = range.minExclusive ? `above ${show(range.min / scale)}` : `${show(range.min / scale)}`;
  const kind = range.integer ? 'a whole number' : 'a number';
  const basis = range.maxBasis === undefined ? '' : ` (${range.maxBasis})`;
  return range.minExclusive ? `${kind} ${low} and at most ${show(range.max / scale)} ${unit}${basis}` : `${kind} from ${low} to ${show(range.max / scale)} ${unit}${basis}`;
}

/**
 * Checks one value (in field units) against its range. The message names
 * the flag or field as the user wrote it, the value as typed when given
 * (`raw`), and the range in the user's unit. `name` overrides the shown
 * name (`--batch-sizes` is also `batchSizes` in code).
 */
export function checkRange(field: RangedOption | string, value: unknown, audience: RangeAudience = 'field', options: { readonly raw?: string; readonly name?: string } = {}): number {
  const range = optionRange(field);
  const name = options.name ?? (audience === 'flag' ? range.flag : range.field);
  const scale = audience === 'flag' ? (range.flagScale ?? 1) : 1;
  const shown = options.raw ?? (typeof value === 'number' ? show(value / scale) : JSON.stringify(value) ?? String(value));
  const ok =
    typeof value === 'number' &&
    Number.isFinite(value) &&
    (!range.integer || Number.isInteger(value)) &&
    (range.minExclusive ? value > range.min : value >= range.min) &&
    value <= range.max;
  if (!ok) {
    throw new UserError(`${name} must be ${rangeText(range, audience)}, got ${shown}`, `pass ${name} ${rangeText(range, audience)}`);
  }
  return value;
}

/**
 * The largest value of `field` that is at most `bound` and inside its
 * range, or null when none is: what a fix may suggest when a value is too
 * large for something else (the dataset's rows, the model's context), so
 * the suggestion passes both that check and the range.
 */
export function largestAllowed(field: RangedOption, bound: number): number | null {
  const range: OptionRange = OPTION_RANGES[field];
  const value = Math.min(range.integer ? Math.floor(bound) : bound, range.max);
  return (range.minExclusive ? value > range.min : value >= range.min) ? value : null;
}

/** Help text for a flag's range, e.g. `1–4096 rows per batch`. */
export function flagRangeHelp(field: RangedOption): string {
  const range: OptionRange = OPTION_RANGES[field];
  const scale = range.flagScale ?? 1;
  const unit = range.flagUnit ?? range.unit;
  const low = range.minExclusive ? `>${show(range.min / scale)}` : show(range.min / scale);
  return `range ${low}–${show(range.max / scale)}${unit.startsWith('(') ? '' : ` ${unit}`}${range.maxBasis === undefined ? '' : ` (${range.maxBasis})`}`;
}
