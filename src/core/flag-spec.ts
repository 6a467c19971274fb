/**
 * The shape of a command's options: its flags, with their help and range,
 * as plain frozen data. It lives in core, below every layer, because a
 * scenario (src/scenarios/<name>/) declares its own options table and the
 * CLI, far above, only reads it (src/cli/command-specs.ts builds each
 * scenario's command from the scenario registry). Data only: importing it
 * loads nothing, so `--help` stays instant.
 */
import type { RangedOption } from './option-ranges.js';

/** A flag a command accepts: `value` flags take an argument, `boolean` ones do not. */
export interface FlagSpec {
  readonly name: string;
  readonly kind: 'value' | 'boolean';
  readonly help: string;
  /** Placeholder shown in help, e.g. `DIR`. */
  readonly arg?: string;
  /** The flag may be given several times (`--config a --config b`); read it with `repeatedFlag`. */
  readonly repeatable?: boolean;
  /** The OPTION_RANGES entry its numbers must fall in; shown in help. */
  readonly range?: RangedOption;
}

/** A CLI command: its flags and help. Kept free of heavy imports so `--help` is instant. */
export interface CommandSpec {
  readonly name: string;
  readonly summary: string;
  readonly usage: string;
  readonly flags: readonly FlagSpec[];
  readonly details?: string;
}

/**
 * A flag whose meaning is the CLI's own, the same on every command that
 * takes it (`--wide`: the report's layout; `--quiet`: progress on stderr;
 * `--verbose`: native libraries' log lines). A scenario says where its
 * help lists one, and the CLI supplies the definition, so its text is
 * written once. `--help` is every command's, always last, and added by the CLI.
 */
export interface CliFlagSlot {
  readonly cliFlag: 'wide' | 'quiet' | 'verbose' | 'details' | 'engine-module';
}

/**
 * A scenario's options as its command shows them: the command's word is
 * the scenario's, so it is not repeated here.
 */
export interface ScenarioOptions {
  readonly summary: string;
  readonly usage: string;
  readonly flags: readonly (FlagSpec | CliFlagSlot)[];
  readonly details?: string;
}

/** True for a CLI-wide flag's slot in a scenario's options table. */
export function isCliFlagSlot(entry: FlagSpec | CliFlagSlot): entry is CliFlagSlot {
  return 'cliFlag' in entry;
}

/** Freezes an options table and every flag in it, so no reader can change what another reads. */
export function frozenOptions<T extends ScenarioOptions>(options: T): T {
  for (const flag of options.flags) Object.freeze(flag);
  Object.freeze(options.flags);
  return Object.freeze(options);
}
