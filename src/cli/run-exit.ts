import type { NothingMeasured } from '../runs/nothing-measured.js';

/**
 * Exit code of a finished run: 0 when a cell was measured, else the
 * reasons on stderr and 2 when every cell was skipped (a setting that
 * cannot run here: the user's to fix) or 1 when cells errored.
 */
export function reportNothingMeasured(empty: NothingMeasured | null): number {
  if (empty === null) return 0;
  const what = empty.allSkipped ? 'every cell was skipped' : 'no cell completed';
  process.stderr.write(`inferbench: error: nothing was measured: ${what}
${empty.reasons.map((r) => `  ${r}
`).join('')}  fix: change the settings named above (the files above record every cell and why)
`);
  return empty.allSkipped ? 2 : 1;
}
