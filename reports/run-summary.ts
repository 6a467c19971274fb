/**
 * Shapes a RunRecord once for every renderer: row order, engine labels and
 * the engine-vs-engine comparison. Terminal, CSV and chart all read these, so
 * they never disagree on which engine won or in which order rows appear.
 */
import type { CellResult, CompletedCell, RunRecord } from '../src/core/results.js';
import type { SessionDescription } from '../src/core/engine-session.js';

/** Models in the order the run lists them, then any only seen in cells. */
export function modelOrder(run: RunRecord): string[] {
  const names = run.models.map((m) => m.name);
  for (const cell of run.cells) if (!names.includes(cell.model)) names.push(cell.model);
  return names;
}

/** Engines in the order the sweep first ran them, which is the order the user asked for. */
export function engineOrder(run: RunRecord): string[] {
  const names: string[] = [];
  for (const cell of run.cells) if (!names.includes(cell.engine)) names.push(cell.engine);
  return names;
}

/** Distinct batch sizes, ascending. */
export function batchSizes(run: RunRecord): number[] {
  return [...new Set(run.cells.map((c) => c.batchSize))].sort((a, b) => a - b);
}

/**
 * Names each cell's engine for display. Only when one engine ran with several
 * requested thread counts is the count added (`onnx-cpu (4 threads)`), so the
 * usual single-setting run keeps plain engine names.
 */
export function engineLabeller(run: RunRecord): (cell: CellResult) => string {
  const withHost = engineLabellerNoHost(run);
  if (!hasHosts(run)) return withHost;
  return (cell) => `${withHost(cell)} @ ${cell.host?.name ?? 'coordinator'}`;
}

/** Whether any cell was measured by a queue worker (`run --queue`): then every label names its host. */
export function hasHosts(run: { readonly cells: readonly CellResult[] }): boolean {
  return run.cells.some((c) => c.host !== undefined);
}

/** Worker names, sorted. */
export function hostOrder(run: { readonly cells: readonly CellResult[] }): string[] {
  return [...new Set(run.cells.flatMap((c) => (c.host ? [c.host.name] : [])))].sort();
}

function engineLabellerNoHost(run: RunRecord): (cell: CellResult) => string {
  const threadSettings = new Map<string, Set<number | null>>();
  for (const cell of run.cells) {
    const set = threadSettings.get(cell.engine) ?? new Set<number | null>();
    set.add(cell.requestedThreads);
    threadSettings.set(cell.engine, set);
  }
  return (cell) => {
    if ((threadSettings.get(cell.engine)?.size ?? 0) <= 1) return cell.engine;
    const t = cell.requestedThreads;
    return `${cell.engine} (${t === null ? 'default' : t} thread${t === 1 ? '' : 's'})`;
  };
}

/** A cell's fixed sequence length, or null when it ran on dataset text. */
export function sequenceOf(cell: CellResult): number | null {
  return cell.sequenceLength ?? null;
}

/** Distinct fixed sequence lengths, ascending, with null (dataset text) first. */
export function sequenceLengths(run: RunRecord): (number | null)[] {
  return [...new Set(run.cells.map(sequenceOf))].sort((a, b) => (a ?? -1) - (b ?? -1));
}

/** Cells sorted by model, then batch size, then sequence length, then engine order, so each batch size reads as one block. */
export function orderedCells(run: RunRecord): CellResult[] {
  const models = modelOrder(run);
  const engines = engineOrder(run);
  return run.cells
    .map((cell, index) => ({ cell, index }))
    .sort(
      (a, b) =>
        models.indexOf(a.cell.model) - models.indexOf(b.cell.model) ||
        a.cell.batchSize - b.cell.batchSize ||
        (sequenceOf(a.cell) ?? -1) - (sequenceOf(b.cell) ?? -1) ||
        engines.indexOf(a.cell.engine) - engines.indexOf(b.cell.engine) ||
        (a.cell.host?.name ?? '').localeCompare(b.cell.host?.name ?? '') ||
        a.index - b.index,
    )
    .map((x) => x.cell);
}

/** A cell's state as reports show it: a completed cell that Ctrl-C cut short reads `interrupted`. */
export function displayState(cell: CellResult): CellResult['state'] | 'interrupted' {
  return cell.state === 'completed' && cell.interrupted ? 'interrupted' : cell.state;
}

/**
 * Why a completed cell's mean cannot be set beside others', or null when it
 * can: every round must have timed whole passes over the rows, so every row
 * weighs the same in every engine's mean.
 */
export function notComparable(cell: CompletedCell): string | null {
  const short = cell.rounds?.find((r) => r.passes < 1);
  if (!short) return null;
  // The verdict knows the length of a pass (from the row count); the round alone only knows what it saw.
  const stated = cell.verdict?.reasons.find((r) => /^saw \d+ of .+ batches of one pass/.test(r));
  return stated ? stated.replace(/ \(raise --max-time\)$/, '') : `saw ${short.runMs.length} batches, not one whole pass`;
}

/** The session a cell reports, if it got far enough to load one. */
export function sessionOf(cell: CellResult): SessionDescription | undefined {
  return cell.state === 'skipped' ? undefined : cell.session;
}

/** `name@version` pairs joined by `separator`, in the engine's own order. */
export function formatVersions(versions: Readonly<Record<string, string>>, separator: string): string {
  return Object.entries(versions)
    .map(([name, version]) => `${name}@${version}`)
    .join(separator);
}

/** A slower engine and how many times slower it was, for the `faster than` lines. */
export interface EngineRatio {
  readonly label: string;
  readonly meanMs: number;
  readonly cell: CompletedCell;
  /** How many times slower than the fastest engine (≥ 1). */
  readonly ratio: number;
}

/** The fastest engine at one model and batch size, against every other completed one. */
export interface BatchComparison {
  readonly model: string;
  /** Fixed sequence length of the compared cells; null for dataset text. */
  readonly sequenceLength?: number | null;
  readonly batchSize: number;
  /** Null when fewer than two cells could be compared (then `notCompared` says why). */
  readonly fastest: { readonly label: string; readonly meanMs: number; readonly cell: CompletedCell } | null;
  /** Slower engines, least slow first. */
  readonly others: readonly EngineRatio[];
  /** Completed cells left out because they did not see the same rows in whole passes, with why. */
  readonly notCompared?: readonly { readonly label: string; readonly why: string }[];
}

/**
 * Compares engines by mean per-batch engine latency of completed cells at the
 * same model and batch size. Per-batch latency (not total) is used so a cell
 * that measured fewer batches is not flattered. Batch sizes where fewer than
 * two engines completed are left out: there is nothing to compare. Cells
 * that did not see the same rows in whole passes are not ranked; they are
 * listed in `notCompared` with why.
 */
export function compareEngines(run: RunRecord): BatchComparison[] {
  const label = engineLabeller(run);
  const out: BatchComparison[] = [];
  for (const model of modelOrder(run)) {
    for (const batchSize of batchSizes(run)) for (const sequenceLength of sequenceLengths(run)) {
      const all = run.cells.filter(
        (c): c is CompletedCell =>
          c.state === 'completed' && c.model === model && c.batchSize === batchSize && sequenceOf(c) === sequenceLength,
      );
      // Only cells that saw the same rows in whole passes are set side by side; the others are named with why.
      const completed = all.filter((c) => notComparable(c) === null);
      const notCompared = all.flatMap((c) => {
        const why = notComparable(c);
        return why === null ? [] : [{ label: label(c), why }];
      });
      if (completed.length < 2) {
        if (notCompared.length > 0 && all.length >= 2) {
          const only = completed[0];
          out.push({ model, ...(sequenceLength === null ? {} : { sequenceLength }), batchSize, fastest: only ? { label: label(only), meanMs: only.latency.mean, cell: only } : null, others: [], notCompared });
        }
        continue;
      }
      const ranked = completed
        .map((c) => ({ label: label(c), meanMs: c.latency.mean, cell: c }))
        .sort((a, b) => a.meanMs - b.meanMs);
      const [fastest, ...rest] = ranked as [(typeof ranked)[number], ...typeof ranked];
      out.push({
        model,
        ...(sequenceLength === null ? {} : { sequenceLength }),
        batchSize,
        fastest,
        others: rest.map((r) => ({ ...r, ratio: fastest.meanMs > 0 ? r.meanMs / fastest.meanMs : Infinity })),
        ...(notCompared.length > 0 ? { notCompared } : {}),
      });
    }
  }
  return out;
}
