/**
 * The answer a load report opens with: each engine's peak sustainable rate
 * with its interval, best first, and the call, whether the best is told
 * apart from the next. With --find-peak the peak is the search's (the rate
 * every round passed, the interval from the lowest last pass to the highest
 * first fail); with --rates alone it is the highest rate asked that stayed
 * VALID (and met the goal, when there is one), bounded by the next rate
 * asked. A lead is called only where one engine passed a rate the other
 * failed: overlapping intervals say "not told apart". Read from the same
 * rows as the tables (load-views.ts), so the two never disagree.
 */
import type { LoadRunRecord } from './load-results.js';
import { goalText } from './latency-goal.js';
import { formatRate } from '../../core/units.js';
import { paint, wrap } from '../../../reports/text-table.js';
import { loadPeakRows, loadRateRows, loadSettingsView, type LoadRateRow } from './load-views.js';

/** One engine's sustainable rate: the highest passing one, with what bounds it above. */
interface Sustained {
  readonly label: string;
  /** The peak (mean over rounds) or the highest rate passed; null when none passed. */
  readonly rate: number | null;
  /** The lowest rate known to pass in every round (the interval's low end); null when none. */
  readonly low: number | null;
  /** The lowest rate known to fail (the interval's high end); null when none failed. */
  readonly high: number | null;
  /** `400 – 440`, `200; 400 failed`, `none of 50, 100 passed`. */
  readonly text: string;
}

const rps = (v: number): string => formatRate(v, '');

function fromPeaks(run: LoadRunRecord): Sustained[] {
  return loadPeakRows(run).map((p) => {
    const { lastPass, firstFail, interrupted } = p.interval;
    const text =
      lastPass === null
        ? firstFail === null ? 'no whole probe' : `none passed; ${rps(firstFail)} failed`
        : `${rps(lastPass)} – ${firstFail === null ? (interrupted ? 'search interrupted' : 'none failed') : rps(firstFail)}`;
    // With several rounds, the 95% interval of the mean peak across them, as the peak view gives it.
    const ci = p.ci95 ? `; 95% CI ${rps(p.ci95.low)} – ${rps(p.ci95.high)}` : '';
    return { label: p.label, rate: p.peakRps, low: lastPass, high: firstFail, text: `${text}${ci}` };
  });
}

/** A rate row passed: met the goal in every round, or, without a goal, VALID. */
const passed = (r: LoadRateRow): boolean => (r.passed === null ? r.summary.verdict.status === 'VALID' : r.passed);

function fromRates(run: LoadRunRecord): Sustained[] {
  const byEngine = new Map<string, LoadRateRow[]>();
  for (const r of loadRateRows(run)) if (r.purpose.split('+').includes('rate')) byEngine.set(r.label, [...(byEngine.get(r.label) ?? []), r]);
  return [...byEngine].map(([label, rows]) => {
    // The highest rate passed below the first one failed: a rate passed above a failure is luck, not a sustainable rate.
    const firstFail = rows.find((r) => !passed(r));
    const ok = rows.filter((r) => passed(r) && (firstFail === undefined || r.targetRps < firstFail.targetRps));
    const best = ok.at(-1);
    const high = firstFail?.targetRps ?? null;
    const text =
      best === undefined
        ? `none passed; ${rps(high ?? 0)} failed`
        : `${high === null ? 'the highest asked' : `${rps(high)} failed: ${firstFail?.summary.verdict.status === 'VALID' ? 'over the goal' : firstFail?.summary.verdict.status}`}`;
    return { label, rate: best?.targetRps ?? null, low: best?.targetRps ?? null, high, text };
  });
}

/** "highest, 1.9× onnx-wasm; the intervals do not overlap", or why the two are not told apart. */
function callText(top: Sustained, next: Sustained | undefined, peakSearch: boolean): string {
  if (next === undefined) return 'the only engine measured';
  if (next.rate === null) return `the only one to pass a rate${top.low !== null ? ` (${next.label} failed every rate)` : ''}`;
  const ratio = top.rate !== null && next.rate > 0 ? `${(top.rate / next.rate).toFixed(2)}× ${next.label}` : next.label;
  // Told apart only when the best passed a rate at or above the one the next failed.
  if (top.low !== null && next.high !== null && top.low >= next.high) return `highest, ${ratio}: it passed ${rps(top.low)}, where ${next.label} failed from ${rps(next.high)}`;
  const more = peakSearch ? 'more rounds (--rounds) narrow the intervals' : 'rates between them, or --find-peak, would tell';
  return `not told apart from ${next.label} (${ratio}): their intervals overlap; ${more}`;
}

/**
 * "Peak sustainable rate per engine (p99=50ms, VALID; interval …):", one
 * line per engine, best first, names and rates in columns, then the call
 * on the best.
 */
export function loadAnswerLines(run: LoadRunRecord, width: number, color: boolean): string[] {
  const peakSearch = loadPeakRows(run).length > 0;
  const engines = (peakSearch ? fromPeaks(run) : fromRates(run)).sort((a, b) => (b.rate ?? -1) - (a.rate ?? -1));
  const [top] = engines;
  if (top === undefined) return [];
  const goal = loadSettingsView(run).slo;
  const rule = `${goal ? `${goalText(goal)}, ` : ''}VALID`;
  const heading = peakSearch ? `Peak sustainable rate per engine (req/s; ${rule}; last pass – first fail):` : `Highest rate sustained per engine, of the rates asked (req/s; ${rule}; the next rate):`;
  const lines = wrap(heading, width).map((l) => paint(l, 'bold', color));
  const nameWidth = Math.max(...engines.map((e) => e.label.length));
  const rates = engines.map((e) => (e.rate === null ? 'none' : rps(e.rate)));
  const rateWidth = Math.max(...rates.map((r) => r.length));
  engines.forEach((e, i) => {
    const head = `  ${e.label.padEnd(nameWidth)}  ${(rates[i] ?? '').padStart(rateWidth)}  `;
    // Names and rates line up in columns; the interval wraps under itself when the terminal is narrow.
    const [first = '', ...rest] = wrap(`(${e.text})`, Math.max(20, width - head.length));
    const shown = i === 0 && e.rate !== null ? head.replace(e.label, paint(e.label, 'green', color)) : head;
    lines.push(shown + first, ...rest.map((l) => ' '.repeat(head.length) + l));
  });
  if (top.rate !== null) lines.push(...wrap(`${top.label}: ${callText(top, engines[1], peakSearch)}`, width - 4).map((l, i) => (i === 0 ? `  ${l}` : `    ${l}`)));
  return lines;
}
