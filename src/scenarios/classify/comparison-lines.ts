/**
 * The "X× faster" lines under the speed table, one per model, batch size
 * and scope: the fastest engine against the others that saw the same rows
 * in whole passes, by the mean of round means, called faster only when the
 * round means support it (the log-ratio t-test and the minimum effect, as
 * `compare`). Each line names its scope (engine time, or end to end), says
 * what a pipeline engine's engine time is, and says when the engines ran at
 * different thread counts; cells without a whole pass are named with why.
 */
import type { RunRecord } from '../../core/results.js';
import { formatDuration, formatRatio } from '../../core/units.js';
import { modelOrder } from '../../../reports/run-summary.js';
import { callDifference, COMPARE_ALPHA, formatP } from '../../../reports/run-comparison.js';
import { paint, wrap, wrapHanging } from '../../../reports/text-table.js';
import { type ComparedCell, engineComparisons, PARITY_MARKER, parityOk, PIPELINE_FORWARD, type ScopeComparison } from '../../../reports/run-views.js';

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
      return wrapHanging(`${where}: ${skippedText}`, width);
    }
    // "X× faster" only where the rounds support it: the same log-ratio t-test on round means as `compare`.
    const others = c.others.map((o) => {
      const threads = threadsAgainst(fastest.threads, o.threads);
      const note = threads === '' ? '' : ` (${threads})`;
      if (formatRatio(o.ratio) === '1.0×') return `about as fast as ${name(o, c.scope)}${note}`;
      const evidence = callDifference(fastest.roundMeans, o.roundMeans);
      if (evidence.call === 'slower') return `${formatRatio(o.ratio)} faster than ${name(o, c.scope)}${note}`;
      // The p-value as the reason where there is one: the inconclusive call's rounds hint belongs to `compare`.
      const why = evidence.p !== null && !(evidence.p < COMPARE_ALPHA) ? `p = ${formatP(evidence.p)} ≥ ${COMPARE_ALPHA}` : evidence.note;
      return `not shown faster than ${name(o, c.scope)} (${formatRatio(o.ratio)} in the mean; ${why}${threads === '' ? '' : `; ${threads}`})`;
    });
    const lead = name(fastest, c.scope);
    const text = `${where}: ${lead} is ${others.join(', ')}${skippedText ? `; ${skippedText}` : ''}`;
    return wrap(text, width - 4).map((line, i) => {
      const shown = i === 0 ? line : `    ${line}`;
      return i === 0 ? shown.replace(lead, paint(lead, 'green', color)) : shown;
    });
  });
}

/** `onnx-cpu (2 threads)`: every engine named in the answer carries the threads it reported. */
function withThreads(c: ComparedCell): string {
  // A run that swept threads already names them in the label.
  return /\bthreads?\b/u.test(c.label) ? c.label : `${c.label} (${threadWord(c.threads)})`;
}

/** One scope's part of an answer line: the fastest, its time per batch and its lead over the next, called only where the rounds support it. */
function leadText(c: ScopeComparison): string {
  const fastest = c.fastest;
  if (fastest === null) return 'no two engines with a whole pass to rank';
  const next = c.others[0];
  const head = `${withThreads(fastest)} ${formatDuration(fastest.meanMs)}`;
  if (next === undefined) return `${head}, the only one ranked`;
  const ratio = formatRatio(next.ratio);
  const evidence = callDifference(fastest.roundMeans, next.roundMeans);
  // The next engine's threads only when they differ: the line must fit two rows of a terminal per batch size.
  const nextName = next.threads === fastest.threads && !/\bthreads?\b/u.test(next.label) ? next.label : withThreads(next);
  return `${head}, ${ratio} ahead of ${nextName}${evidence.call === 'slower' ? '' : ', not significant'}`;
}

/**
 * The answer the report opens with: per model, batch size, sequence length
 * and host, the fastest engine in engine time and end to end, its time per
 * batch and its lead over the next engine. It is read from the same
 * comparisons as the lines under the speed table (engineComparisons), so
 * the two never disagree; those lines and the tables give the rest.
 */
export function answerLines(run: RunRecord, width: number, color: boolean): string[] {
  const prefixModel = modelOrder(run).length > 1;
  const groups = new Map<string, ScopeComparison[]>();
  for (const c of engineComparisons(run)) {
    const where = `${prefixModel ? `${c.model}, ` : ''}${c.sequenceLength !== null ? `seq ${c.sequenceLength}, ` : ''}batch ${c.batchSize}${c.host !== null ? ` @ ${c.host}` : ''}`;
    groups.set(where, [...(groups.get(where) ?? []), c]);
  }
  if (groups.size === 0) return [];
  const lines = wrap('Fastest engine per batch size (engine time per batch, mean of round means; lead over the next):', width).map((l) => paint(l, 'bold', color));
  for (const [where, scopes] of groups) {
    const engine = scopes.find((s) => s.scope === 'engine');
    const e2e = scopes.find((s) => s.scope === 'end-to-end');
    // Engine time first and unlabelled (the heading names it), end to end after it: two rows of a terminal per batch size.
    const parts = [engine ? leadText(engine) : '', e2e ? `end to end: ${leadText(e2e)}` : ''].filter((p) => p !== '');
    const text = `${where}: ${parts.join('; ')}`;
    const lead = engine?.fastest ? withThreads(engine.fastest) : null;
    lines.push(...wrap(text, width - 4).map((l, i) => (i === 0 ? `  ${lead ? l.replace(lead, paint(lead, 'green', color)) : l}` : `    ${l}`)));
  }
  return lines;
}
