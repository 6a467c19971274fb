/**
 * The "X× faster" lines under the speed table: the fastest engine at each
 * model and batch size against the others that saw the same rows in whole
 * passes, called faster only when the round means support it (Welch's test
 * and the minimum effect, as `compare`); cells that did not see whole
 * passes are named with why, never ranked.
 */
import type { RunRecord } from '../src/core/results.js';
import { formatRatio } from '../src/core/units.js';
import { compareEngines, engineLabeller, modelOrder } from './run-summary.js';
import { callDifference, roundMeansOf } from './run-comparison.js';
import { paint, wrap } from './text-table.js';
import { parityOk } from './views.js';
import { PARITY_MARKER } from './terminal-views.js';

/** One wrapped line (or a few) per compared model and batch size. */
export function comparisonLines(run: RunRecord, width: number, color: boolean): string[] {
  const comparisons = compareEngines(run);
  const prefixModel = modelOrder(run).length > 1;
  const label = engineLabeller(run);
  const failed = new Set(run.cells.filter((c) => parityOk(c) === false).map((c) => `${c.model}\u0000${c.batchSize}\u0000${label(c)}`));
  return comparisons.flatMap((c) => {
    const skippedText = (c.notCompared ?? []).map((n) => `${n.label} not compared (${n.why}; not the same rows as whole passes)`).join('; ');
    if (c.fastest === null || c.others.length === 0) {
      const where = `${prefixModel ? `${c.model}, ` : ''}${c.sequenceLength ? `seq ${c.sequenceLength}, ` : ''}batch ${c.batchSize}`;
      return wrap(`${where}: ${skippedText}`, width - 4).map((line, i) => (i === 0 ? line : `    ${line}`));
    }
    const fastest = c.fastest;
    const mark = (name: string): string => (failed.has(`${c.model}\u0000${c.batchSize}\u0000${name}`) ? `${name} (${PARITY_MARKER})` : name);
    // "X× faster" only where the rounds support it: the same Welch test on round means as `compare`.
    const others = c.others.map((o) => {
      if (formatRatio(o.ratio) === '1.0×') return `about as fast as ${mark(o.label)}`;
      const evidence = callDifference(roundMeansOf(fastest.cell), roundMeansOf(o.cell));
      if (evidence.call === 'slower') return `${formatRatio(o.ratio)} faster than ${mark(o.label)}`;
      return `not shown faster than ${mark(o.label)} (${formatRatio(o.ratio)} in the mean; ${evidence.note})`;
    });
    const where = `${prefixModel ? `${c.model}, ` : ''}${c.sequenceLength ? `seq ${c.sequenceLength}, ` : ''}batch ${c.batchSize}`;
    const text = `${where}: ${mark(fastest.label)} is ${others.join(', ')}${skippedText ? `; ${skippedText}` : ''}`;
    return wrap(text, width - 4).map((line, i) => {
      const shown = i === 0 ? line : `    ${line}`;
      return i === 0 ? shown.replace(fastest.label, paint(fastest.label, 'green', color)) : shown;
    });
  });
}
