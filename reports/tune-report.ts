/**
 * `inferbench tune`'s answer from its last rung (an ordinary run record)
 * and every candidate's path through the search: per engine and batch
 * size, the fastest configuration whose parity holds, its speed-up over
 * the engine's defaults with the 95% interval and compare's call (the
 * same test as `inferbench compare`: run-comparison.ts), its memory and
 * parity; the `--engine-options` flag that reproduces each winner; and
 * tune.csv, one row per candidate with the rung it was dropped in.
 */
import type { CompletedCell, RunRecord } from '../src/core/results.js';
import { canonicalOptions, parseVariantId } from '../src/core/engine-options.js';
import { formatBytes } from '../src/core/units.js';
import { acrossRounds, callDifference, roundMeansOf, type DifferenceCall } from './run-comparison.js';
import { csvField } from './csv-report.js';
import { wrap } from './text-table.js';

/** A candidate as the search left it (src/runs/tune-search.ts). */
export interface TuneRow {
  readonly engine: string;
  readonly id: string;
  readonly options: string;
  readonly rungReached: number;
  readonly droppedIn: number | null;
  readonly reason: string | null;
  readonly ratio: number | null;
}

/** The search's shape, for the method line. */
export interface TuneShape {
  readonly rungs: readonly { readonly index: number; readonly rounds: number; readonly limit: number | null; readonly stop: { readonly minTimeMs: number } }[];
  readonly candidates: readonly TuneRow[];
}

/** The best configuration of one engine at one batch size. */
export interface TuneBest {
  readonly engine: string;
  readonly batchSize: number;
  /** The winner's variant id, or null when no candidate completed with parity. */
  readonly id: string | null;
  readonly options: string;
  readonly meanMs: number | null;
  /** Defaults' time over the winner's (above 1: faster than the defaults), with its 95% interval. */
  readonly speedup: number | null;
  readonly speedupCi: { readonly low: number; readonly high: number } | null;
  readonly call: DifferenceCall | null;
  readonly peakRssBytes: number | null;
  readonly parity: string;
}

const completedAt = (record: RunRecord, id: string, batch: number): CompletedCell | undefined => {
  const c = record.cells.find((x) => x.engine === id && x.batchSize === batch);
  return c?.state === 'completed' ? c : undefined;
};

const parityHolds = (c: CompletedCell): boolean => !c.parity || c.parity.withinTolerance;

function parityText(c: CompletedCell): string {
  if (!c.parity) return c.parityUnavailable ? `not checked: ${c.parityUnavailable}` : 'not checked (the parity reference itself, or parity off)';
  return `${c.parity.withinTolerance ? 'ok' : 'FAILED'} (max |Δ| ${c.parity.maxAbsDiff.toExponential(2)} vs ${c.parity.reference})`;
}

/** Per engine and batch size: the fastest finalist whose parity holds (a failing one is never best), against the defaults. */
export function tuneBest(record: RunRecord, rows: readonly TuneRow[]): TuneBest[] {
  const engines = [...new Set(rows.map((r) => r.engine))];
  const batches = [...new Set(record.cells.map((c) => c.batchSize))].sort((a, b) => a - b);
  return engines.flatMap((engine) =>
    batches.map((batchSize) => {
      const finalists = rows.filter((r) => r.engine === engine && r.droppedIn === null);
      const ok = finalists.flatMap((r) => {
        const c = completedAt(record, r.id, batchSize);
        return c !== undefined && parityHolds(c) ? [{ row: r, cell: c, mean: acrossRounds(c).mean }] : [];
      });
      ok.sort((a, b) => a.mean - b.mean);
      const win = ok[0];
      const defaults = completedAt(record, engine, batchSize);
      if (win === undefined) return { engine, batchSize, id: null, options: '', meanMs: null, speedup: null, speedupCi: null, call: null, peakRssBytes: null, parity: 'no candidate completed with parity' };
      const call = defaults === undefined || win.row.id === engine ? null : callDifference(roundMeansOf(defaults), roundMeansOf(win.cell));
      const speedup = defaults === undefined ? null : acrossRounds(defaults).mean / win.mean;
      const ci = call?.ratioCi ? { low: 1 / call.ratioCi.high, high: 1 / call.ratioCi.low } : null;
      return { engine, batchSize, id: win.row.id, options: win.row.options, meanMs: win.mean, speedup, speedupCi: ci, call, peakRssBytes: win.cell.peakRssBytes, parity: parityText(win.cell) };
    }),
  );
}

/** The `--engine-options` flags that reproduce the winners (one per engine, its winning values joined by | per key). */
export function reproducingFlags(best: readonly TuneBest[]): string[] {
  const byEngine = new Map<string, Map<string, Set<string>>>();
  for (const b of best) {
    const v = b.id === null ? null : parseVariantId(b.id);
    if (v === null) continue;
    const keys = byEngine.get(b.engine) ?? new Map<string, Set<string>>();
    for (const [k, x] of Object.entries(v.values)) keys.set(k, (keys.get(k) ?? new Set()).add(x));
    byEngine.set(b.engine, keys);
  }
  return [...byEngine].map(([engine, keys]) => `--engine-options '${engine}:${[...keys].map(([k, xs]) => `${k}=${[...xs].join('|')}`).join(';')}'`);
}

/** How the search ran, in one paragraph, for the report. */
export function methodText(shape: TuneShape): string {
  const rungs = shape.rungs.map((r) => `${r.rounds} round(s), min time ${(r.stop.minTimeMs / 1000).toFixed(2)} s, ${r.limit ?? 'all'} rows`).join(' → ');
  return (
    `Method: successive halving over ${shape.rungs.length} rung(s) (${rungs}): every candidate runs the first rung; after each rung the slower half of each engine's ` +
    `candidates (geometric mean of its time over the defaults' across batch sizes) is dropped, and any that failed a cell or parity; the survivors run the next ` +
    `rung, twice as long in time, rounds and rows (all of a rung's candidates stream the same rows); the last rung is the full stop rule. The defaults are always a candidate and never dropped: every speed-up is against them, tested as ` +
    '`inferbench compare` does (two-sided test of log ratio of round means, p < 0.05 and at least a 5% effect).'
  );
}

const pct = (x: number): string => `${x.toFixed(2)}×`;

/** The answer, one line per engine and batch size, then the flags that reproduce the winners. */
export function tuneLines(best: readonly TuneBest[], shape: TuneShape, width: number): string[] {
  const out = [`TUNE: ${shape.candidates.length} candidates, ${shape.candidates.filter((c) => c.droppedIn === null).length} in the last rung`];
  for (const b of best) {
    const head = `${b.engine}, batch ${b.batchSize}: `;
    if (b.id === null) {
      out.push(...wrap(`${head}${b.parity}`, width - 2).map((l) => `  ${l}`));
      continue;
    }
    const what = b.options === '' ? 'the defaults' : `[${b.options}]`;
    const speed =
      b.id === b.engine ? 'no candidate beat them' : b.speedup === null ? 'defaults not measured' : `${pct(b.speedup)} the defaults' speed${b.speedupCi ? ` (95% CI ${pct(b.speedupCi.low)}–${pct(b.speedupCi.high)})` : ''}, ${b.call?.call ?? 'not compared'}${b.call ? ` (${b.call.note})` : ''}`;
    const mem = b.peakRssBytes === null ? '' : `; peak RSS ${formatBytes(b.peakRssBytes)}`;
    out.push(...wrap(`${head}${what}: ${speed}${mem}; parity ${b.parity}`, width - 2).map((l) => `  ${l}`));
  }
  const flags = reproducingFlags(best);
  out.push(...wrap(flags.length === 0 ? 'Every engine is best at its defaults: run it without --engine-options.' : `Reproduce the winners: inferbench run … ${flags.join(' ')}`, width));
  out.push(...wrap(methodText(shape), width));
  return out;
}

/** tune.csv: every candidate, the rung it reached, the rung it was dropped in (empty: it ran the last one) and why. */
export function renderTuneCsv(rows: readonly TuneRow[], best: readonly TuneBest[]): string {
  const head = ['engine', 'candidate', 'engine_options', 'is_default', 'rung_reached', 'dropped_in_rung', 'reason', 'time_vs_defaults', 'best_at_batch_sizes'];
  const lines = [head.join(',')];
  for (const r of rows) {
    const bestAt = best.filter((b) => b.id === r.id).map((b) => b.batchSize).join(';');
    lines.push([r.engine, r.id, r.options, String(r.options === ''), r.rungReached + 1, r.droppedIn === null ? null : r.droppedIn + 1, r.reason, r.ratio, bestAt].map((v) => csvField(v ?? null)).join(','));
  }
  return `${lines.join('\r\n')}\r\n`;
}

/** The canonical form of a variant's options, for callers holding an id. */
export function optionsOfId(id: string): string {
  const v = parseVariantId(id);
  return v === null ? '' : canonicalOptions(v.values);
}
