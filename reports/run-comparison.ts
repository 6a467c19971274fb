/**
 * Compares two runs cell by cell, on the evidence across independent
 * rounds. On a shared machine a cell's mean drifts 10–20% minute to minute,
 * so per-batch intervals (which only see the noise inside one round) call
 * changes that a re-run does not reproduce. Here each round's mean is one
 * observation: B is called "faster" or "slower" only when the t-test of
 * log(B/A) on the two sides' round means (the log scale every interval is
 * built on; Welch–Satterthwaite df) is significant (two-sided, α = 0.05),
 * which is exactly when B/A's 95% interval excludes 1, AND the
 * ratio of means B/A is at least the minimum effect away from 1 (5% by
 * default); otherwise "no difference" (within the equivalence bound) or "inconclusive", with why. A record made
 * before rounds existed counts as one round, which can never support a call.
 * Pure, so the CLI, the chart and the web dashboard agree on every call.
 */
import type { CellResult, CompletedCell, HostNoise, RunRecord } from '../src/core/results.js';
import { computeStatistics, ratioTest, studentTQuantile } from '../src/core/statistics.js';
import { orderedCells } from './run-summary.js';
import { cellFigures, describeThreads, parityOk, partialPass, threadsUsed } from './run-views.js';

export { threadsUsed } from './run-views.js';
import { busierReading, hostBusy, HIGH_STEAL_SHARE } from '../src/core/host-noise.js';

/** What B did relative to A: called only when the rounds support it (see the module comment). */
export type ComparisonCall = 'faster' | 'slower' | 'no difference' | 'inconclusive' | 'not compared';

/** Significance level of the two-sided Welch test. */
export const COMPARE_ALPHA = 0.05;
/** Smallest change |B/A − 1| ever called, unless `--min-effect` says otherwise. */
export const DEFAULT_MIN_EFFECT = 0.05;
/**
 * The equivalence bound: "no difference" only when B/A's whole 95% interval
 * lies within ±5% of 1. An interval that crosses 1 but reaches past it
 * (0.93×–2.31×) cannot rule out a change and is "inconclusive", which a
 * reader no longer takes for "the same" as "no significant difference" was.
 */
export const EQUIVALENCE_BOUND = 0.05;
/** The most rounds an "inconclusive" call suggests; a spread that needs more says so. */
const MAX_SUGGESTED_ROUNDS = 50;

/** The method, in words, for report footers and chart subtitles. */
export function compareMethodText(minEffect: number): string {
  return (
    `each round's mean engine time per batch is one observation; B is called faster or slower only when the t-test of ` +
    `log(B/A) on the two sides' round means is significant (two-sided, α = ${COMPARE_ALPHA}, Welch–Satterthwaite df), which is ` +
    `exactly when B/A's 95% interval (the same test's, on the log scale) excludes 1, and B/A is at least ${percent(minEffect)} away ` +
    `from 1; "no difference" only when the whole interval lies within ±${percent(EQUIVALENCE_BOUND)} of 1 (the equivalence bound); otherwise "inconclusive", ` +
    'with the rounds a side that the spread between rounds says would settle it. A run recorded before rounds existed counts as one round, which can never support a call.'
  );
}

/** One cell present in both runs. */
export interface CellComparison {
  readonly model: string;
  readonly engine: string;
  readonly batchSize: number;
  /** A's requested thread count (null: engine default); cells match on `threads`, what ran. */
  readonly requestedThreads: number | null;
  /** Threads the engine actually used (`session.threads`), or the request when the record has no session. */
  readonly threads: number | null;
  readonly sequenceLength: number | null;
  /** `onnx-cpu · 4 threads · batch 8`, the name in tables and the chart. */
  readonly label: string;
  readonly a: CellResult;
  readonly b: CellResult;
  /** Mean of B's round means over A's (below 1: B is faster); null unless both completed. */
  readonly ratio: number | null;
  /** 95% interval of `ratio`; null with fewer than 2 rounds a side. */
  readonly ratioCi: Interval | null;
  /** Two-sided p-value of the log(B/A) t-test on the round means (`ratioTest`); null with fewer than 2 rounds a side. */
  readonly p: number | null;
  /** Rounds each side contributed (0 when that side did not complete). */
  readonly roundsA: number;
  readonly roundsB: number;
  readonly call: ComparisonCall;
  /** Why the call is what it is: the p-value, the effect against the minimum, or why nothing could be compared. */
  readonly note: string | null;
  /** Each side's measurement verdict, null when the record has none. */
  readonly verdictA: 'VALID' | 'NOISY' | null;
  readonly verdictB: 'VALID' | 'NOISY' | null;
  /** Each side's output parity (false: wrong answers beyond tolerance), null when not checked. */
  readonly parityA: boolean | null;
  readonly parityB: boolean | null;
  /** Signs of a busy host during that side's rounds (`load 1.6/core`), null when none were seen or recorded. */
  readonly hostNoiseA: string | null;
  readonly hostNoiseB: string | null;
}

/** Every cell of A matched with B, plus the cells only one run has. */
export interface RunComparison {
  readonly a: RunRecord;
  readonly b: RunRecord;
  /** The smallest |B/A − 1| this comparison calls. */
  readonly minEffect: number;
  /** Matched cells, in A's report order. */
  readonly cells: readonly CellComparison[];
  readonly onlyInA: readonly CellResult[];
  readonly onlyInB: readonly CellResult[];
}

/** A closed interval, as `SampleStatistics.ci95` holds it. */
export interface Interval {
  readonly low: number;
  readonly high: number;
}

/** True when two closed intervals share at least one point. */
export function intervalsOverlap(x: Interval, y: Interval): boolean {
  return x.low <= y.high && y.low <= x.high;
}

function percent(x: number): string {
  return `${+(x * 100).toFixed(1)}%`;
}

/**
 * The mean engine time per batch of each independent round (a pipeline
 * engine's own forward; views.ts), or (a record from before rounds) the
 * cell's one mean as a single round.
 */
export function roundMeansOf(cell: CompletedCell): readonly number[] {
  return cellFigures(cell).engine.roundMeans;
}

/** Mean of the round means with its 95% interval across rounds (null for one round), for tables and charts: the engine scope of views.ts. */
export function acrossRounds(cell: CompletedCell): { readonly rounds: number; readonly mean: number; readonly ci95: Interval | null } {
  const e = cellFigures(cell).engine;
  return { rounds: e.roundMeans.length, mean: e.meanMs, ci95: cell.rounds ? e.ci95 : computeStatistics(e.roundMeans).ci95 };
}

/** The outcome of testing B's round means against A's. */
export interface DifferenceCall {
  readonly call: 'faster' | 'slower' | 'no difference' | 'inconclusive';
  readonly note: string;
  readonly ratio: number | null;
  readonly ratioCi: Interval | null;
  readonly p: number | null;
}

/**
 * Calls B against A from their round means: faster or slower only when
 * the two-sided test of log(B/A) (`ratioTest`) gives p < α AND |B/A − 1| ≥ `minEffect`. Fewer than
 * 2 rounds on a side is never called: one round carries no evidence of how
 * much a re-run would move.
 */
export function callDifference(a: readonly number[], b: readonly number[], minEffect = DEFAULT_MIN_EFFECT): DifferenceCall {
  const ratio = meanRatio(a, b);
  if (a.length < 2 || b.length < 2) {
    const sides = [a.length < 2 ? 'A' : '', b.length < 2 ? 'B' : ''].filter((s) => s !== '').join(' and ');
    return { call: 'inconclusive', note: `one round in ${sides}: no between-round evidence; more rounds would tell (--rounds 3)`, ratio, ratioCi: null, p: null };
  }
  // One test for the call and the interval: p < α exactly when B/A's interval excludes 1.
  const test = ratioTest(a, b);
  const ratioCi = test === null ? null : { low: test.low, high: test.high };
  const p = test?.p ?? null;
  const pText = p === null ? 'p unknown' : p < 0.001 ? 'p < 0.001' : `p = ${formatP(p)}`;
  const effect = ratio === null ? 0 : Math.abs(ratio - 1);
  if (p !== null && ratio !== null && p < COMPARE_ALPHA && effect >= minEffect) return { call: ratio < 1 ? 'faster' : 'slower', note: pText, ratio, ratioCi, p };
  const range = ratioCi === null ? '' : `${ratioCi.low.toFixed(2)}×–${ratioCi.high.toFixed(2)}×`;
  if (ratioCi !== null && ratioCi.low >= 1 - EQUIVALENCE_BOUND && ratioCi.high <= 1 + EQUIVALENCE_BOUND) {
    return { call: 'no difference', note: `${range}, within the ±${percent(EQUIVALENCE_BOUND)} equivalence bound`, ratio, ratioCi, p };
  }
  // Significant but under the minimum effect: more rounds cannot make it a call; the note says why instead.
  if (p !== null && p < COMPARE_ALPHA) return { call: 'inconclusive', note: `${range}: ${pText}, but the change ${percent(effect)} is below the ${percent(minEffect)} minimum effect`, ratio, ratioCi, p };
  const rounds = roundsToSettle(a, b, ratio ?? 1, minEffect);
  const more = rounds === null ? `more than ${MAX_SUGGESTED_ROUNDS} rounds a side would be needed` : `more rounds would tell (--rounds ${rounds})`;
  return { call: 'inconclusive', note: `${range === '' ? pText : range}: ${more}`, ratio, ratioCi, p };
}

/**
 * The rounds a side that would settle an inconclusive pair, from the spread
 * between its rounds: the smallest n at which the 95% interval of log(B/A)
 * (each side's relative variance of round means ÷ n, Student t with 2n − 2
 * df) is narrow enough either to exclude 1 by the minimum effect (a ratio
 * that far from 1) or to fit within the equivalence bound (one nearer);
 * null when even MAX_SUGGESTED_ROUNDS would not.
 */
export function roundsToSettle(a: readonly number[], b: readonly number[], ratio: number, minEffect = DEFAULT_MIN_EFFECT): number | null {
  const relVar = (xs: readonly number[]): number => {
    const m = xs.reduce((s, x) => s + x, 0) / xs.length;
    return xs.reduce((s, x) => s + (x - m) ** 2, 0) / (xs.length - 1) / (m * m);
  };
  const v = relVar(a) + relVar(b);
  const distance = Math.abs(Math.log(ratio));
  const bound = Math.log(1 + EQUIVALENCE_BOUND);
  // A ratio at least the minimum effect from 1 is settled by excluding 1; a nearer one by fitting within the bound.
  const room = Math.abs(ratio - 1) >= minEffect ? distance : bound - distance;
  if (!(room > 0)) return null;
  for (let n = Math.max(a.length, b.length) + 1; n <= MAX_SUGGESTED_ROUNDS; n++) if (studentTQuantile(0.975, 2 * n - 2) * Math.sqrt(v / n) <= room) return n;
  return null;
}

/** The call in words, the same in the terminal, the chart and the dashboard: `B 1.47× slower (p = 0.010)`, `inconclusive (0.93×–2.31×): more rounds would tell (--rounds 9)`. */
export function callWords(c: { readonly call: ComparisonCall; readonly ratio: number | null; readonly note: string | null }): string {
  if (c.call === 'faster' || c.call === 'slower') return `B ${ratioText(c.ratio)} ${c.call}${c.note ? ` (${c.note})` : ''}`;
  if (c.call === 'inconclusive' && c.note !== null && /^[\d.]+×–/u.test(c.note)) {
    const [range = '', rest = ''] = c.note.split(/: (.*)/u);
    return `inconclusive (${range}): ${rest}`;
  }
  return c.note ? `${c.call} (${c.note})` : c.call;
}

/** `0.031`, `<0.001`: enough digits to judge against α without false precision. */
export function formatP(p: number): string {
  return p < 0.001 ? '<0.001' : p.toFixed(3);
}

function sequenceLengthOf(cell: CellResult): number | null {
  return cell.state === 'completed' ? (cell.sequenceLength ?? null) : null;
}

/**
 * The identity a cell is matched on: model, engine, batch size, threads
 * actually used and sequence length. Matching on what ran rather than what
 * was asked lets a `--threads 1,2` run meet a default run (2 threads on a
 * 2-core machine) on their 2-thread cells.
 */
export function cellMatchKey(cell: CellResult): string {
  // A queue worker's cells match the same worker's (by --name) in the other run; local cells match local ones.
  return [cell.model, cell.engine, cell.batchSize, threadsUsed(cell) ?? 'default', sequenceLengthOf(cell) ?? '', cell.host?.name ?? ''].join('\u0000');
}

function verdictOf(cell: CellResult): 'VALID' | 'NOISY' | null {
  return cell.state === 'completed' ? (cell.verdict?.status ?? null) : null;
}

/** The worst host noise recorded around a cell's rounds (`load 1.6/core, steal 7%`), or null when none crossed the limits. */
export function hostNoiseOf(cell: CellResult): string | null {
  if (cell.state !== 'completed') return null;
  let busiest: HostNoise | null = null;
  let steal = 0;
  for (const round of cell.rounds ?? []) {
    if (round.noise === undefined) continue;
    const busier = busierReading(round.noise.before, round.noise.after);
    busiest = busiest === null ? busier : busierReading(busiest, busier);
    // The "after" reading's steal covers the round itself; the "before" one covers the time before it.
    steal = Math.max(steal, round.noise.after.stealShare ?? 0);
  }
  const busy = busiest === null ? null : hostBusy(busiest);
  const parts = [busy?.busy ? busy.short : '', steal > HIGH_STEAL_SHARE ? `steal ${percent(steal)}` : ''];
  const text = parts.filter((s) => s !== '').join(', ');
  return text === '' ? null : text;
}

/**
 * Why a completed cell's mean cannot be set against another run's: Ctrl-C
 * cut it short, or a round timed only part of a pass, so its mean is over
 * other rows (other padded lengths) than a whole pass's. Null when it can.
 */
function unfitReason(cell: CompletedCell, side: 'A' | 'B'): string | null {
  if (cell.interrupted === true) return `interrupted in ${side}`;
  if (partialPass(cell) !== null) return `part of a pass in ${side}: not the same rows`;
  return null;
}

/** `256 rows (sha256 1a2b3c4d)`, or what the run config says of the rows when the record predates fingerprints. */
function rowsText(cell: CompletedCell, run: RunRecord): string {
  if (cell.rowSet) return `${cell.rowSet.rows} rows (sha256 ${cell.rowSet.sha256.slice(0, 8)})`;
  const rows = rowsOfConfig(run);
  return `${rows.limit === null ? 'all rows' : `--limit ${rows.limit}`} of ${rows.dataset}${rows.skipped > 0 ? ` after ${rows.skipped} calibration rows` : ''}`;
}

/** What a run's config says of the rows its cells streamed: the dataset (and its subset and split), the row limit and the rows skipped for calibration. */
function rowsOfConfig(run: RunRecord): { readonly dataset: string; readonly limit: number | null; readonly skipped: number } {
  const config = run.config;
  const text = (v: unknown): string => (typeof v === 'string' ? v : v === null || v === undefined ? '' : JSON.stringify(v));
  const dataset = [text(config['datasetResolved'] ?? config['dataset']) || 'the embedded dataset', text(config['datasetConfig']), text(config['split'])].filter((p) => p !== '').join(' ');
  const limit = typeof config['limit'] === 'number' ? config['limit'] : null;
  const calibration = config['calibration'] as { readonly rows?: unknown } | null | undefined;
  return { dataset, limit, skipped: typeof calibration?.rows === 'number' ? calibration.rows : 0 };
}

/**
 * Why two cells cannot be set against each other although they match: they
 * streamed different rows (another dataset, --limit, calibration skip or
 * sequence policy), told by each cell's row fingerprint, or by the run
 * configs for records from before fingerprints. Null when the rows are the same.
 */
export function differentRows(a: CompletedCell, runA: RunRecord, b: CompletedCell, runB: RunRecord): string | null {
  if (a.rowSet && b.rowSet) {
    if (a.rowSet.rows === b.rowSet.rows && a.rowSet.sha256 === b.rowSet.sha256) return null;
  } else if (JSON.stringify(rowsOfConfig(runA)) === JSON.stringify(rowsOfConfig(runB))) {
    return null;
  }
  return `different rows: A ${rowsText(a, runA)}, B ${rowsText(b, runB)}`;
}

function meanRatio(a: readonly number[], b: readonly number[]): number | null {
  const mean = (xs: readonly number[]): number => xs.reduce((s, x) => s + x, 0) / xs.length;
  return a.length > 0 && b.length > 0 && mean(a) > 0 ? mean(b) / mean(a) : null;
}

function compareCell(a: CellResult, b: CellResult, label: string, minEffect: number, runs: { readonly a: RunRecord; readonly b: RunRecord }): CellComparison {
  const base = {
    model: a.model,
    engine: a.engine,
    batchSize: a.batchSize,
    requestedThreads: a.requestedThreads,
    threads: threadsUsed(a),
    sequenceLength: sequenceLengthOf(a) ?? sequenceLengthOf(b),
    label,
    a,
    b,
    verdictA: verdictOf(a),
    verdictB: verdictOf(b),
    parityA: parityOk(a),
    parityB: parityOk(b),
    hostNoiseA: hostNoiseOf(a),
    hostNoiseB: hostNoiseOf(b),
  };
  if (a.state !== 'completed' || b.state !== 'completed') {
    const sides = [a.state !== 'completed' ? `${a.state} in A` : '', b.state !== 'completed' ? `${b.state} in B` : ''];
    return {
      ...base,
      ratio: null,
      ratioCi: null,
      p: null,
      roundsA: a.state === 'completed' ? roundMeansOf(a).length : 0,
      roundsB: b.state === 'completed' ? roundMeansOf(b).length : 0,
      call: 'not compared',
      note: sides.filter((s) => s !== '').join(', '),
    };
  }
  const ra = roundMeansOf(a);
  const rb = roundMeansOf(b);
  // Cells that streamed other rows measured other work: no ratio, no call, and why.
  const rows = differentRows(a, runs.a, b, runs.b);
  if (rows !== null) return { ...base, roundsA: ra.length, roundsB: rb.length, ratio: null, ratioCi: null, p: null, call: 'not compared', note: rows };
  const unfit = [unfitReason(a, 'A'), unfitReason(b, 'B')].filter((r): r is string => r !== null);
  if (unfit.length > 0) {
    return { ...base, roundsA: ra.length, roundsB: rb.length, ratio: meanRatio(ra, rb), ratioCi: null, p: null, call: 'not compared', note: unfit.join(', ') };
  }
  return { ...base, roundsA: ra.length, roundsB: rb.length, ...callDifference(ra, rb, minEffect) };
}

/**
 * Matches the cells of two runs (model, engine, batch size, threads used,
 * sequence length) and calls each pair. Threads and models are named in
 * labels only when either run has several of them. A second cell of one run
 * with the same identity (two requests that ran with the same threads) is
 * listed as unmatched rather than dropped.
 */
export function compareRuns(a: RunRecord, b: RunRecord, options: { readonly minEffect?: number } = {}): RunComparison {
  const minEffect = options.minEffect ?? DEFAULT_MIN_EFFECT;
  const bByKey = new Map<string, CellResult>();
  for (const cell of orderedCells(b)) if (!bByKey.has(cellMatchKey(cell))) bByKey.set(cellMatchKey(cell), cell);
  const all = [...a.cells, ...b.cells];
  const showThreads = all.some((c) => c.requestedThreads !== null) || new Set(all.map((c) => `${c.engine}\u0000${threadsUsed(c)}`)).size > new Set(all.map((c) => c.engine)).size;
  const showModel = new Set(all.map((c) => c.model)).size > 1;
  const label = (c: CellResult): string => {
    const seq = sequenceLengthOf(c);
    return [
      showModel ? c.model : null,
      c.host ? `${c.engine} @ ${c.host.name}` : c.engine,
      showThreads ? describeThreads(threadsUsed(c)) : null,
      `batch ${c.batchSize}`,
      seq !== null ? `seq ${seq}` : null,
    ]
      .filter((p) => p !== null)
      .join(' · ');
  };
  const cells: CellComparison[] = [];
  const matched = new Set<string>();
  const usedInB = new Set<CellResult>();
  const onlyInA: CellResult[] = [];
  for (const cell of orderedCells(a)) {
    const key = cellMatchKey(cell);
    const other = bByKey.get(key);
    if (other === undefined || matched.has(key)) {
      onlyInA.push(cell);
      continue;
    }
    matched.add(key);
    usedInB.add(other);
    cells.push(compareCell(cell, other, label(cell), minEffect, { a, b }));
  }
  const onlyInB = orderedCells(b).filter((c) => !usedInB.has(c));
  return { a, b, minEffect, cells, onlyInA, onlyInB };
}

/** Cells either side of which ran on a noisy host, as `label (A: load 1.6/core)`; empty when none. */
export function noisyHostCells(cmp: RunComparison): string[] {
  return cmp.cells
    .filter((c) => c.hostNoiseA !== null || c.hostNoiseB !== null)
    .map((c) => {
      const sides = [c.hostNoiseA !== null ? `A: ${c.hostNoiseA}` : '', c.hostNoiseB !== null ? `B: ${c.hostNoiseB}` : ''].filter((s) => s !== '');
      return `${c.label} (${sides.join('; ')})`;
    });
}

/** One part of a cell's identity, read from a run's cells. */
interface KeyPart {
  readonly name: string;
  readonly value: (run: RunRecord, cell: CellResult) => string;
  /** The value every cell has when the option was not used; not worth saying when both runs share it. */
  readonly unset?: string;
}

/** The model row without its precision, and the precision apart, so a run of fp32 and one of q8 read as a precision difference. */
function variantOf(run: RunRecord, cell: CellResult) {
  return run.models.find((m) => m.name === cell.model)?.variant ?? null;
}

const NO_DTYPE = 'no --dtype (onnx/model.onnx)';
const LOCAL = 'this machine';
const DATASET_TEXT = 'dataset text';

/** The parts of cellMatchKey, as a user names them. */
const KEY_PARTS: readonly KeyPart[] = [
  { name: 'model', value: (run, c) => variantOf(run, c)?.of ?? c.model },
  { name: 'precision', value: (run, c) => variantOf(run, c)?.dtype ?? NO_DTYPE, unset: NO_DTYPE },
  { name: 'engine', value: (_run, c) => c.engine },
  { name: 'batch size', value: (_run, c) => String(c.batchSize) },
  { name: 'threads used', value: (_run, c) => String(threadsUsed(c) ?? 'default') },
  { name: 'sequence length', value: (_run, c) => (typeof c.sequenceLength === 'number' ? String(c.sequenceLength) : DATASET_TEXT), unset: DATASET_TEXT },
  { name: 'worker', value: (_run, c) => c.host?.name ?? LOCAL, unset: LOCAL },
];

/**
 * Why two runs share no cell, for the "no cells in common" message: each
 * part of the cell identity whose values differ between the runs, with both
 * sides' values, those with no value in common first (each alone explains
 * it); then what they share. `model: A tiny-bert; B mini · sequence length:
 * A 8, 16; B dataset text (the same engine onnx-cpu, batch size 1, 8)`.
 */
export function describeDifference(a: RunRecord, b: RunRecord): { readonly differ: string; readonly same: string; readonly parts: readonly string[] } {
  const values = (run: RunRecord, part: KeyPart): string[] => {
    const all = [...new Set(run.cells.map((c) => part.value(run, c)))];
    const numbers = all.filter((v) => /^\d+$/.test(v)).sort((x, y) => Number(x) - Number(y));
    return numbers.length === 0 ? all : [...numbers, ...all.filter((v) => !numbers.includes(v))];
  };
  const rows = KEY_PARTS.map((part) => {
    const [va, vb] = [values(a, part), values(b, part)];
    const disjoint = !va.some((v) => vb.includes(v));
    const same = va.length === vb.length && va.every((v) => vb.includes(v));
    return { part, va, vb, disjoint, same };
  });
  const differing = rows.filter((r) => !r.same).sort((x, y) => Number(y.disjoint) - Number(x.disjoint));
  const shared = rows.filter((r) => r.same && r.va.length > 0 && !(r.va.length === 1 && r.va[0] === r.part.unset));
  return {
    differ: differing.map((r) => `${r.part.name}: A ${r.va.join(', ') || 'none'}; B ${r.vb.join(', ') || 'none'}`).join(' · '),
    same: shared.map((r) => `${r.part.name} ${r.va.join(', ')}`).join(', '),
    parts: differing.map((r) => r.part.name),
  };
}

/** `1.61×` for a speed-up or slow-down, always ≥ 1 so "faster" and "slower" read the same way. */
export function ratioText(ratio: number | null): string {
  if (ratio === null || !(ratio > 0)) return '';
  const factor = ratio < 1 ? 1 / ratio : ratio;
  return `${factor.toFixed(2)}×`;
}
