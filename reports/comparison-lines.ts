/**
 * The "X× faster" lines under the speed table, one per model, batch size
 * and scope: the fastest engine against the others that saw the same rows
 * in whole passes, by the mean of round means, called faster only when the
 * round means support it (the log-ratio t-test and the minimum effect, as
 * `compare`). Each line names its scope (engine time, or end to end), says
 * what a pipeline engine's engine time is, and says when the engines ran at
 * different thread counts; cells without a whole pass are named with why.
 */
import type { RunRecord } from '../src/core/results.js';
import { formatRatio } from '../src/core/units.js';
import { modelOrder } from './run-summary.js';
import { callDifference } from './run-comparison.js';
import { paint, wrap } from './text-table.js';
import { type ComparedCell, engineComparisons, PARITY_MARKER, parityOk, PIPELINE_FORWARD, type ScopeComparison } from './run-views.js';

const SCOPE_NAME: Record<ScopeComparison['scope'], string> = { engine: 'engine time', 'end-to-end': 'end to end' };

function threadWord(n: number | null): string {
  return n === null ? 'default threads' : `${n} thread${n === 1 ? '' : 's'}`;
}

/** `2 threads against 1`, when the two engines ran at different thread counts; empty otherwise. */
export function threadsAgainst(a: number | null, b: number | null): string {
  if (a === b) return '';
  return b === null || a === null ? `${threadWord(a)} against ${threadWord(b)}` : `${threadWord(a)} against ${b}`;
}

/** One wrapped line (or a few) per compared model, batch size and scope. */
export function comparisonLines(run: RunRecord, width: number, color: boolean): string[] {
  const prefixModel = modelOrder(run).length > 1;
  const name = (c: ComparedCell, scope: ScopeComparison['scope']): string => {
    const wrong = parityOk(c.cell) === false ? ` (${PARITY_MARKER})` : '';
    // In the engine scope a pipeline's figure is its own forward, not its whole call: the sentence says so.
    const forward = scope === 'engine' && c.covers === PIPELINE_FORWARD ? " (its pipeline's forward)" : '';
    return `${c.label}${forward}${wrong}`;
  };
  return engineComparisons(run).flatMap((c) => {
    const where = `${prefixModel ? `${c.model}, ` : ''}${c.sequenceLength !== null ? `seq ${c.sequenceLength}, ` : ''}batch ${c.batchSize}${c.host !== null ? ` @ ${c.host}` : ''}, ${SCOPE_NAME[c.scope]}`;
    const skippedText = c.notCompared.map((n) => `${n.label} not compared (${n.why})`).join('; ');
    const fastest = c.fastest;
    if (fastest === null || c.others.length === 0) {
      return wrap(`${where}: ${skippedText}`, width - 4).map((line, i) => (i === 0 ? line : `    ${line}`));
    }
    // "X× faster" only where the rounds support it: the same log-ratio t-test on round means as `compare`.
    const others = c.others.map((o) => {
      const threads = threadsAgainst(fastest.threads, o.threads);
      const note = threads === '' ? '' : ` (${threads})`;
      if (formatRatio(o.ratio) === '1.0×') return `about as fast as ${name(o, c.scope)}${note}`;
      const evidence = callDifference(fastest.roundMeans, o.roundMeans);
      if (evidence.call === 'slower') return `${formatRatio(o.ratio)} faster than ${name(o, c.scope)}${note}`;
      return `not shown faster than ${name(o, c.scope)} (${formatRatio(o.ratio)} in the mean; ${evidence.note}${threads === '' ? '' : `; ${threads}`})`;
    });
    const lead = name(fastest, c.scope);
    const text = `${where}: ${lead} is ${others.join(', ')}${skippedText ? `; ${skippedText}` : ''}`;
    return wrap(text, width - 4).map((line, i) => {
      const shown = i === 0 ? line : `    ${line}`;
      return i === 0 ? shown.replace(lead, paint(lead, 'green', color)) : shown;
    });
  });
}
