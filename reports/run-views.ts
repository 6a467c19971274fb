/**
 * The views of one RunRecord, as plain data: the baseline table (one row per
 * cell), the engine-against-engine comparisons, core and batch scaling and
 * the latency distribution (scaling-views.ts). Pure functions, so the
 * terminal, the CSV/Parquet/Arrow files, the PNG charts and the web
 * dashboard all show the same numbers.
 *
 * This is the one place where a cell's figures are derived (cell-figures.ts
 * underneath): per-pass totals, the two scopes (engine and end to end), the
 * one estimator (mean of round means), partial-pass marks and the threads
 * read back. Each row carries the full cell key (model, variant, engine,
 * threads read back, batch, sequence length, host), so a renderer can name
 * any cell without looking it up again.
 */
import type { AccuracyRows, CellEnergy, CellMemory, CellParity, CellResult, CellVerdict, CompletedCell, RowFingerprint, RunRecord } from '../src/core/results.js';
import type { SampleStatistics } from '../src/core/statistics.js';
import { cellFigures, parityOk, type PassShape, type Scope, type ScopeFigures, type ScopeInterval, threadsUsed } from './cell-figures.js';
import { batchSizes, engineLabeller, modelOrder, orderedCells, sequenceLengths, sequenceOf, sessionOf } from './run-summary.js';
import { softwareSuffix } from '../src/core/gpu-adapter.js';
import { browserLabeller } from './browser-label.js';

export {
  cellFigures,
  ENGINE_CALL,
  isPipeline,
  parityOk,
  partialPass,
  PIPELINE_END_TO_END,
  PIPELINE_FORWARD,
  PLAIN_END_TO_END,
  scopeOf,
  scopeRounds,
  threadsUsed,
  type CellFigures,
  type PassShape,
  type Scope,
  type ScopeFigures,
  type ScopeInterval,
} from './cell-figures.js';
export * from './scaling-views.js';
export { cellName, cellNamer, plannedKeys, varyingKeys, type NamedCell, type VaryingKeys } from './cell-names.js';

/** Everything that tells one cell from another, with the threads the engine reported using. */
export interface ViewCellKey {
  /** The row's model name, its precision variant included (`tiny · q8`). */
  readonly model: string;
  /** The model a variant belongs to (`tiny`); the model itself when the row is no variant. */
  readonly baseModel: string;
  /** The precision variant (`--dtype`) of the model, when the row is one. */
  readonly variant: string | null;
  readonly engine: string;
  /** Threads read back from the engine (the request when it reported none). */
  readonly threads: number | null;
  readonly requestedThreads: number | null;
  readonly batchSize: number;
  readonly sequenceLength: number | null;
  /** The queue worker that measured the cell; null in local runs. */
  readonly host: string | null;
}

/** The full key of a cell in `run`. */
export function viewCellKey(run: RunRecord, cell: CellResult): ViewCellKey {
  const variant = run.models.find((m) => m.name === cell.model)?.variant ?? null;
  return {
    model: cell.model,
    baseModel: variant?.of ?? cell.model,
    variant: variant?.dtype ?? null,
    engine: cell.engine,
    threads: threadsUsed(cell),
    requestedThreads: cell.requestedThreads,
    batchSize: cell.batchSize,
    sequenceLength: sequenceOf(cell),
    host: cell.host?.name ?? null,
  };
}

/** Which key columns a table of these rows needs: only the parts of the key that differ between them. */
export interface KeyColumns {
  readonly model: boolean;
  readonly variant: boolean;
  readonly sequenceLength: boolean;
  readonly threads: boolean;
  readonly host: boolean;
}

/** The key columns of a run's per-cell tables (the dashboard's among them), from its rows' keys. */
export function keyColumns(keys: readonly ViewCellKey[]): KeyColumns {
  const varies = (f: (k: ViewCellKey) => unknown): boolean => new Set(keys.map(f)).size > 1;
  return {
    model: varies((k) => k.baseModel),
    variant: keys.some((k) => k.variant !== null) && varies((k) => k.variant),
    sequenceLength: varies((k) => k.sequenceLength),
    threads: varies((k) => k.requestedThreads),
    host: keys.some((k) => k.host !== null),
  };
}

/** Whose memory a row's RSS is: a fresh child process per open, this process beside other engines, or a browser's renderer. */
export type MemoryProcess = 'isolated' | 'in-process' | 'browser renderer' | null;

/** Every figure of one cell a table row needs; what an old record lacks is null. */
export interface BaselineRow {
  readonly key: ViewCellKey;
  readonly model: string;
  readonly engine: string;
  /** Engine as the other reports name it (threads added when an engine ran at several settings). */
  readonly label: string;
  /** The engine as the per-cell tables' engine column names it: the id, or for a browser engine outside Chromium `browser-onnx-wasm · firefox 153` (browser-label.ts). */
  readonly shown: string;
  /** ` · software adapter (SwiftShader)` when the engine ran on one, else empty: every table's engine column adds it. */
  readonly adapterSuffix: string;
  readonly requestedThreads: number | null;
  /** Threads the engine reported using; null when unknown or the cell never opened. */
  readonly threads: number | null;
  readonly batchSize: number;
  readonly sequenceLength: number | null;
  readonly state: CellResult['state'];
  /** Why an errored or skipped cell has no figures. */
  readonly reason: string | null;
  /** Engine-scope percentiles, min, max, stdev and cv, pooled over every batch of every round. */
  readonly latency: SampleStatistics | null;
  /** Engine time per batch: the mean of round means (the estimator of every mean, total and ratio). */
  readonly meanMs: number | null;
  /** Rows of one pass per second of engine time per pass; null without a whole pass. */
  readonly samplesPerSecond: number | null;
  /** The engine scope: the model call; for a pipeline engine, its own forward. */
  readonly engineTime: ScopeFigures | null;
  /** End to end: callbacks, engine and read-back; for a pipeline engine, its whole call. Null in older records. */
  readonly endToEnd: ScopeFigures | null;
  /** The item callback (tokenize, collate, wrap) per batch and per pass. */
  readonly prepare: { readonly meanMs: number; readonly passMs: number | null } | null;
  readonly pass: PassShape | null;
  /** Why the cell has no whole pass ("saw 45 of 256 batches of one pass"); null when it has. */
  readonly partial: string | null;
  readonly verdict: CellVerdict | null;
  readonly memory: CellMemory | null;
  /** Energy over the timed loops (GPU board power, CPU RAPL), each a figure or why it is unmeasurable; null in older records. */
  readonly energy: CellEnergy | null;
  readonly memoryProcess: MemoryProcess;
  /** Batch sizes measured before this one on the same open and process; null in older records. */
  readonly ranBefore: readonly number[] | null;
  /** The session create alone when the engine reported its open phases, else the whole open (`openIsWhole`). */
  readonly openMs: number | null;
  readonly openIsWhole: boolean;
  readonly importMs: number | null;
  readonly placementProbeMs: number | null;
  readonly firstBatchMs: number | null;
  /** True when this batch size was the first measured after its open (its first batch is cold); false: the engine was warm; null: not recorded. */
  readonly coldAfterOpen: boolean | null;
  /** The untimed warm pass over every row (first round); null in records from before it existed. */
  readonly firstPassMs: number | null;
  /** Rounds the figures come from; null in records from before rounds. */
  readonly rounds: number | null;
  /** The engine-scope 95% CI of the mean. */
  readonly interval: ScopeInterval | null;
  /** Ctrl-C cut this cell short; its figures are kept but never VALID. */
  readonly interrupted: boolean;
  /** Why parity was not computed, when it should have been. */
  readonly parityUnavailable: string | null;
  readonly warmupBatches: number | null;
  /** Mean of the recorded warmup batches; null when the record kept none. */
  readonly warmupMeanMs: number | null;
  readonly parity: CellParity | null;
  /** false when outputs differ from the reference beyond tolerance; null when not checked. */
  readonly parityOk: boolean | null;
  /** Accuracy over one whole pass; null without labels or when the engine did not see every row. */
  readonly accuracy: number | null;
  readonly accuracyRows: AccuracyRows | null;
  /** `n/a (saw 95 of 256 rows)` when accuracy is null because the engine did not see every row; else null. */
  readonly accuracyNote: string | null;
  readonly rowSet: RowFingerprint | null;
  /** Marks every table shows beside the figures: `✗ PARITY`, `NOISY`, `PARTIAL`, `interrupted`. */
  readonly flags: readonly string[];
}

/** The marker every report puts on a cell whose outputs disagree with the reference. */
export const PARITY_MARKER = '✗ PARITY';
/** The marker of a cell that saw no whole pass. */
export const PARTIAL_MARKER = 'PARTIAL';

/** Completed cells whose outputs differ from the reference beyond tolerance, in report order. */
export function parityFailures(run: RunRecord): CompletedCell[] {
  return orderedCells(run).filter((c): c is CompletedCell => c.state === 'completed' && parityOk(c) === false);
}

/** The marks of a cell, in the order tables show them. */
export function cellFlags(cell: CellResult): string[] {
  if (cell.state !== 'completed') return [];
  return [
    parityOk(cell) === false ? PARITY_MARKER : '',
    cell.verdict?.status === 'NOISY' ? 'NOISY' : '',
    cellFigures(cell).partial !== null ? PARTIAL_MARKER : '',
    cell.interrupted === true ? 'interrupted' : '',
  ].filter((f) => f !== '');
}

function mean(values: readonly number[] | undefined): number | null {
  if (values === undefined || values.length === 0) return null;
  return values.reduce((a, b) => a + b, 0) / values.length;
}

function memoryProcessOf(cell: CompletedCell): MemoryProcess {
  if (cell.memory?.process !== undefined) return 'browser renderer';
  return cell.memory?.isolation ?? null;
}

function accuracyNote(cell: CompletedCell): string | null {
  const rows = cell.accuracyRows;
  if (!rows || rows.seen >= rows.of || (cell.accuracy ?? null) !== null) return null;
  return `n/a (saw ${rows.seen} of ${rows.of} rows)`;
}

/** The figures of a completed cell as a row. */
function completedRow(cell: CompletedCell): Omit<BaselineRow, 'key' | 'model' | 'engine' | 'label' | 'shown' | 'adapterSuffix' | 'requestedThreads' | 'threads' | 'batchSize' | 'sequenceLength' | 'state' | 'reason'> {
  const f = cellFigures(cell);
  const phases = cell.coldStart?.phases;
  return {
    latency: f.engine.pooled,
    meanMs: f.engine.meanMs,
    samplesPerSecond: f.engine.samplesPerSecond,
    engineTime: f.engine,
    endToEnd: f.endToEnd,
    prepare: f.prepare,
    pass: f.pass,
    partial: f.partial,
    verdict: cell.verdict ?? null,
    memory: cell.memory ?? null,
    energy: cell.energy ?? null,
    memoryProcess: memoryProcessOf(cell),
    ranBefore: cell.memory?.ranBefore ?? null,
    openMs: phases ? phases.createMs : (cell.coldStart?.openMs ?? cell.openMs),
    openIsWhole: phases === undefined,
    importMs: phases?.importMs ?? null,
    placementProbeMs: phases?.placementProbeMs ?? null,
    firstBatchMs: cell.coldStart?.firstBatchMs ?? null,
    coldAfterOpen: cell.coldStart?.afterOpen ?? null,
    firstPassMs: cell.firstPass?.ms ?? null,
    rounds: cell.rounds?.length ?? null,
    interval: f.engine.ci95,
    interrupted: cell.interrupted === true,
    parityUnavailable: cell.parityUnavailable ?? null,
    warmupBatches: cell.warmupBatches,
    warmupMeanMs: mean(cell.samples.warmupMs),
    parity: cell.parity ?? null,
    parityOk: parityOk(cell),
    accuracy: cell.accuracy ?? null,
    accuracyRows: cell.accuracyRows ?? null,
    accuracyNote: accuracyNote(cell),
    rowSet: cell.rowSet ?? null,
    flags: cellFlags(cell),
  };
}

const NO_FIGURES = {
  latency: null, meanMs: null, samplesPerSecond: null, engineTime: null, endToEnd: null, prepare: null, pass: null, partial: null,
  verdict: null, memory: null, energy: null, memoryProcess: null, ranBefore: null, openMs: null, openIsWhole: false, importMs: null, placementProbeMs: null,
  firstBatchMs: null, coldAfterOpen: null, firstPassMs: null, rounds: null, interval: null, interrupted: false, parityUnavailable: null,
  warmupBatches: null, warmupMeanMs: null, parity: null, parityOk: null, accuracy: null, accuracyRows: null, accuracyNote: null, rowSet: null, flags: [],
} as const;

/** One row per cell in report order; `threads` keeps only cells run at that requested setting. */
export function baselineRows(run: RunRecord, opts: { readonly threads?: number | null } = {}): BaselineRow[] {
  const label = engineLabeller(run);
  const shown = browserLabeller(run);
  return orderedCells(run)
    .filter((c) => opts.threads === undefined || c.requestedThreads === opts.threads)
    .map((cell): BaselineRow => ({
      key: viewCellKey(run, cell),
      model: cell.model,
      engine: cell.engine,
      label: label(cell),
      shown: shown(cell),
      adapterSuffix: softwareSuffix(sessionOf(cell)?.adapter),
      requestedThreads: cell.requestedThreads,
      threads: cell.state === 'skipped' ? null : (cell.session?.threads ?? null),
      batchSize: cell.batchSize,
      sequenceLength: sequenceOf(cell),
      state: cell.state,
      reason: cell.state === 'completed' ? null : cell.reason,
      ...(cell.state === 'completed' ? completedRow(cell) : NO_FIGURES),
    }));
}

/** One engine of a comparison: its scope's mean of round means and the threads it ran with. */
export interface ComparedCell {
  readonly label: string;
  readonly cell: CompletedCell;
  readonly threads: number | null;
  readonly meanMs: number;
  readonly roundMeans: readonly number[];
  /** What the scope covers on this cell (a pipeline's forward, a plain engine's call…). */
  readonly covers: string;
}

/** The fastest engine at one model, batch size, sequence length and host, in one scope, against every other comparable one. */
export interface ScopeComparison {
  readonly scope: Scope;
  readonly model: string;
  readonly batchSize: number;
  readonly sequenceLength: number | null;
  readonly host: string | null;
  /** Null when fewer than two cells could be compared (then `notCompared` says why). */
  readonly fastest: ComparedCell | null;
  /** Slower engines, least slow first, with how many times slower (≥ 1). */
  readonly others: readonly (ComparedCell & { readonly ratio: number })[];
  /** Completed cells left out, with why (no whole pass; no figures of this scope). */
  readonly notCompared: readonly { readonly label: string; readonly why: string }[];
}

/**
 * Engines set against each other per model, batch size, sequence length and
 * host, in each scope, by the mean of round means. Cells without a whole
 * pass saw other rows and are never ranked: they are listed with why. A
 * group with fewer than two ranked cells is only kept when it has such a
 * note to show.
 */
export function engineComparisons(run: RunRecord): ScopeComparison[] {
  const label = engineLabeller(run);
  const hosts = [...new Set(run.cells.map((c) => c.host?.name ?? null))];
  const out: ScopeComparison[] = [];
  for (const model of modelOrder(run)) {
    for (const batchSize of batchSizes(run)) {
      for (const sequenceLength of sequenceLengths(run)) {
        for (const host of hosts) {
          const all = run.cells.filter(
            (c): c is CompletedCell => c.state === 'completed' && c.model === model && c.batchSize === batchSize && sequenceOf(c) === sequenceLength && (c.host?.name ?? null) === host,
          );
          if (all.length < 2) continue;
          for (const scope of ['engine', 'end-to-end'] as const) {
            const notCompared: { label: string; why: string }[] = [];
            const ranked: ComparedCell[] = [];
            for (const cell of all) {
              const f = cellFigures(cell);
              const figures = scope === 'engine' ? f.engine : f.endToEnd;
              if (f.partial !== null) notCompared.push({ label: label(cell), why: `${f.partial}; not the same rows as whole passes` });
              else if (figures === null) notCompared.push({ label: label(cell), why: 'no end-to-end figures in this record' });
              else ranked.push({ label: label(cell), cell, threads: f.threads, meanMs: figures.meanMs, roundMeans: figures.roundMeans, covers: figures.covers });
            }
            // The partial-pass notes are said once, under the engine scope.
            const notes = scope === 'engine' ? notCompared : notCompared.filter((n) => !n.why.includes('not the same rows'));
            if (ranked.length < 2 && (notes.length === 0 || scope === 'end-to-end')) continue;
            ranked.sort((a, b) => a.meanMs - b.meanMs);
            const [fastest, ...rest] = ranked;
            out.push({
              scope,
              model,
              batchSize,
              sequenceLength,
              host,
              fastest: fastest ?? null,
              others: fastest ? rest.map((r) => ({ ...r, ratio: fastest.meanMs > 0 ? r.meanMs / fastest.meanMs : Infinity })) : [],
              notCompared: notes,
            });
          }
        }
      }
    }
  }
  return out;
}
