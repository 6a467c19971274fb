/**
 * The result columns of `--engine-options` (src/core/engine-options.ts):
 * the options a row ran with, canonical (`key=value;…` sorted, empty for
 * the engine's defaults), what the engine gave back about them, and any it
 * took without honouring. Kept apart from csv-report.ts so the columns of
 * one feature sit together; CSV, Parquet and Arrow all write them.
 */
import type { CellResult } from '../src/core/results.js';
import { engineOptionsOf } from '../src/core/engine-options.js';
import { sessionOf } from './run-summary.js';

/** A column as csv-report.ts declares them. */
interface OptionColumn {
  readonly name: string;
  readonly value: (cell: CellResult) => string | null | undefined;
  readonly kind: 'string';
}

export const OPTION_COLUMNS: readonly OptionColumn[] = [
  // From the session where it reported one, else from the variant's name (a skipped or failed cell still shows what it asked for).
  { name: 'engine_options', kind: 'string', value: (c) => sessionOf(c)?.engineOptions ?? engineOptionsOf(c.engine) },
  { name: 'option_readback', kind: 'string', value: (c) => readbackText(sessionOf(c)?.optionReadback) },
  { name: 'options_ignored', kind: 'string', value: (c) => sessionOf(c)?.ignoredOptions?.join('; ') },
];

/** `graphNodes=120;threads=1`, sorted by key; undefined when the engine gave nothing back. */
export function readbackText(readback: Readonly<Record<string, string>> | undefined): string | undefined {
  if (readback === undefined) return undefined;
  return Object.keys(readback)
    .sort()
    .map((k) => `${k}=${readback[k] as string}`)
    .join(';');
}
