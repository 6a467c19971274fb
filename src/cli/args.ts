import { UserError } from '../core/errors.js';
import { checkRange, optionRange, type RangedOption } from '../core/option-ranges.js';
import type { CliFlagSlot, FlagSpec } from '../core/flag-spec.js';
export type { CommandSpec, FlagSpec } from '../core/flag-spec.js';

/** The report's layout (src/cli/terminal-width.ts), for run, rerun and show. */
export const WIDE_FLAG: FlagSpec = { name: 'wide', kind: 'boolean', help: 'print every column of every table however wide; by default tables fit COLUMNS, else the terminal, else 80, dropping their least important columns (named under each table; results.csv has them all)' };
export const DETAILS_FLAG: FlagSpec = { name: 'details', kind: 'boolean', help: 'print every table of the report (run: latency statistics, memory, growth, cold start, parity, size, environment, legends…; load, generate, train, compare: every table and note) rather than the one-screen summary; `inferbench show ID --view NAME` prints one' };
export const QUIET_FLAG: FlagSpec = { name: 'quiet', kind: 'boolean', help: 'no progress on stderr (the per-round status line and the per-cell lines); warnings, errors and the report still print' };

/**
 * `--verbose` on the commands that open engines: the engines' native
 * libraries keep their own log lines (libtensorflow's start-up banners),
 * which are otherwise left out of the output (core/library-logs.ts).
 */
export const VERBOSE_FLAG: FlagSpec = { name: 'verbose', kind: 'boolean', help: "also print the engines' native libraries' own log lines (libtensorflow's start-up and INFO lines), which are left out otherwise" };

/**
 * `--engine-module` on the commands that run engines: a plug-in family's
 * module, whose engines the CLI registers before the command runs
 * (dispatch.ts), and whose path every isolated child and queue worker of
 * the run is given, so its engines and its model format are known there.
 */
export const ENGINE_MODULE_FLAG: FlagSpec = { name: 'engine-module', kind: 'value', arg: 'PATH', repeatable: true, help: 'also register the engines a module exports as `engines` (plug-in engine families and test engines), and the model format it registers' };

/** Every command's `--help`, listed last. */
export const HELP_FLAG: FlagSpec = { name: 'help', kind: 'boolean', help: 'show this help' };

/** The CLI-wide flag each slot of an options table names (`{ cliFlag: 'wide' }`): one table for every command built from one. */
export const CLI_SLOT_FLAGS: Readonly<Record<CliFlagSlot['cliFlag'], FlagSpec>> = { wide: WIDE_FLAG, quiet: QUIET_FLAG, verbose: VERBOSE_FLAG, details: DETAILS_FLAG, 'engine-module': ENGINE_MODULE_FLAG };

/** Parsed command line: flag values by name and the positional arguments. */
export interface ParsedArgs {
  readonly flags: Readonly<Record<string, string | true>>;
  readonly positionals: readonly string[];
  /** Every value of each value flag, in order; `flags` keeps the last. */
  readonly repeated?: Readonly<Record<string, readonly string[]>>;
}

/**
 * Parses `--flag value`, `--flag=value` and boolean flags. An unknown flag is
 * a user error listing the valid ones, because a silently ignored typo
 * (`--batch-size`) would produce a run the user did not ask for; so is a
 * single-value flag given twice, naming both values.
 */
export function parseArgs(argv: readonly string[], specs: readonly FlagSpec[], command: string): ParsedArgs {
  const byName = new Map(specs.map((s) => [s.name, s]));
  // No prototype: a flag lookup must never find Object.prototype members (see core/name-lookup.ts).
  const flags: Record<string, string | true> = Object.create(null) as Record<string, string | true>;
  const repeated: Record<string, string[]> = Object.create(null) as Record<string, string[]>;
  const positionals: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] as string;
    if (!arg.startsWith('--')) {
      positionals.push(arg);
      continue;
    }
    const eq = arg.indexOf('=');
    const name = eq === -1 ? arg.slice(2) : arg.slice(2, eq);
    const spec = byName.get(name);
    if (!spec) {
      throw new UserError(`unknown option --${name} for \`inferbench ${command}\``, `valid options: ${specs.map((s) => `--${s.name}`).join(', ')}`);
    }
    if (spec.kind === 'boolean') {
      flags[name] = true;
      continue;
    }
    const value = eq === -1 ? argv[++i] : arg.slice(eq + 1);
    if (value === undefined || value === '') {
      throw new UserError(`--${name} needs a value`, `write --${name} ${spec.arg ?? 'VALUE'}`);
    }
    // A flag that takes one value, given twice with two values (`--rates 50 --rates 100`), used to keep the last silently: which one did the user mean? (The same value twice is no question.)
    const earlier = repeated[name]?.find((v) => v !== value);
    if (!spec.repeatable && earlier !== undefined) {
      throw new UserError(
        `--${name} was given twice ("${earlier}" and "${value}"), but it takes one value`,
        `give --${name} once${spec.arg?.includes(',') || /comma/i.test(spec.help) ? ` (several values go in one, comma-separated: --${name} ${earlier},${value})` : ''}`,
      );
    }
    flags[name] = value;
    (repeated[name] ??= []).push(value);
  }
  return { flags, positionals, repeated };
}

/** Every value of a repeatable flag in order, or undefined when absent. */
export function repeatedFlag(args: ParsedArgs, name: string): string[] | undefined {
  const values = args.repeated?.[name];
  if (values !== undefined) return [...values];
  const single = stringFlag(args, name);
  return single === undefined ? undefined : [single];
}

/** The string value of a flag, or undefined when absent. */
export function stringFlag(args: ParsedArgs, name: string): string | undefined {
  const v = args.flags[name];
  return typeof v === 'string' ? v : undefined;
}

/**
 * A comma-separated list of positive integers (`--batch-sizes 1,8,32`).
 * Errors name the flag and the bad item; `range` names the OPTION_RANGES
 * entry the items must also fall in (the same check the API uses).
 */
export function positiveIntListFlag(args: ParsedArgs, name: string, range?: RangedOption): number[] | undefined {
  const raw = stringFlag(args, name);
  if (raw === undefined) return undefined;
  return raw.split(',').map((item) => inRange(parsePositiveInt(item.trim(), `--${name}`), item.trim(), name, range));
}

/** One positive integer flag (`--limit 100`), checked against `range` when given. */
export function positiveIntFlag(args: ParsedArgs, name: string, range?: RangedOption): number | undefined {
  const raw = stringFlag(args, name);
  return raw === undefined ? undefined : inRange(parsePositiveInt(raw.trim(), `--${name}`), raw.trim(), name, range);
}

/** Checks a flag's value (in the flag's unit) against its range, converting to the field's unit for the check. */
function inRange(value: number, raw: string, name: string, range: RangedOption | undefined): number {
  if (range !== undefined) checkRange(range, value * (optionRange(range).flagScale ?? 1), 'flag', { raw, name: `--${name}` });
  return value;
}

function parsePositiveInt(text: string, flag: string): number {
  if (!/^[+-]?\d+(\.\d+)?$/.test(text) || !Number.isInteger(Number(text)) || Number(text) <= 0) {
    throw new UserError(`${flag} must be positive whole numbers, got "${text}"`, `e.g. ${flag} ${flag === '--batch-sizes' ? '1,8,32' : '4'}`);
  }
  return Number(text);
}

/** A whole number ≥ 0 (`--warmup 0` is allowed), checked against `range` when given; undefined when absent. */
export function countFlag(args: ParsedArgs, name: string, range?: RangedOption): number | undefined {
  const raw = stringFlag(args, name);
  if (raw === undefined) return undefined;
  if (!/^\d+$/.test(raw.trim())) throw new UserError(`--${name} must be a whole number ≥ 0, got "${raw}"`, `e.g. --${name} 1`);
  return inRange(Number(raw.trim()), raw.trim(), name, range);
}

/** Comma-separated names (`--engines onnx-cpu,tfjs-wasm`), empty items dropped. */
export function listFlag(args: ParsedArgs, name: string): string[] | undefined {
  const raw = stringFlag(args, name);
  return raw === undefined ? undefined : raw.split(',').map((s) => s.trim()).filter((s) => s.length > 0);
}

/**
 * A non-negative number flag (`--min-time 0.5`) in the flag's unit; errors
 * name the flag. With `range`, the value must also fall in that
 * OPTION_RANGES entry (scaled to the field's unit for the check).
 */
export function numberFlag(args: ParsedArgs, name: string, range?: RangedOption): number | undefined {
  const raw = stringFlag(args, name);
  if (raw === undefined) return undefined;
  const value = Number(raw.trim());
  if (raw.trim() === '' || !Number.isFinite(value) || value < 0) {
    throw new UserError(`--${name} must be a number ≥ 0, got "${raw}"`, `e.g. --${name} 2`);
  }
  return inRange(value, raw.trim(), name, range);
}
