/**
 * The `inferbench load` sweep: models × engines, one cell each, measured in
 * rounds interleaved across engines as `run` and `train` do (round r opens
 * every model × engine afresh in an order rotated by r), so a machine that
 * drifts over minutes moves every engine's figures alike. Each round
 * measures the asked-for rates and, with `--find-peak`, searches the peak
 * again; the cell keeps every probe and each round's peak interval.
 */
import type { EngineRegistry } from '../../core/engine-registry.js';
import type { CompletedLoadCell, LoadCell, LoadCellKey, LoadPeak, LoadProbe, PeakRound } from './load-results.js';
import { notRunInterrupted } from '../../core/results.js';
import { rotated } from '../../core/round-order.js';
import { betweenRoundsOf } from '../../core/statistics.js';
import type { BenchmarkModel } from '../../models/benchmark-model.js';
import type { ResolvedColumns } from '../../../datasets/columns.js';
import type { DataRow } from '../../../datasets/dataset.js';
import { measureServerGroup, type LoadGroupResult, type LoadGroupRunner, type LoadPlan } from './rate-group.js';

/** Progress events for a CLI or a web page; `index` counts cells recorded so far. */
export type LoadProgress =
  | { readonly kind: 'cell-start'; readonly index: number; readonly total: number; readonly key: LoadCellKey; readonly round: number; readonly rounds: number }
  | { readonly kind: 'probe'; readonly index: number; readonly total: number; readonly key: LoadCellKey; readonly probe: LoadProbe }
  | { readonly kind: 'cell-done'; readonly index: number; readonly total: number; readonly cell: LoadCell };

export interface LoadSweepOptions {
  readonly models: readonly BenchmarkModel[];
  readonly engines: readonly string[];
  readonly threads: number | null;
  readonly plan: LoadPlan;
  readonly rounds: number;
  readonly rows: readonly DataRow[];
  readonly columns: ResolvedColumns;
  readonly registry: EngineRegistry;
  readonly signal?: AbortSignal;
  readonly onProgress?: (event: LoadProgress) => void;
  readonly onCell: (cell: LoadCell) => Promise<void>;
  /** Where each model × engine round runs; default this process. */
  readonly runGroup?: LoadGroupRunner;
}

/** One cell's rounds so far. */
interface CellBook {
  readonly key: LoadCellKey;
  readonly probes: LoadProbe[];
  readonly peaks: PeakRound[];
  first: Extract<LoadGroupResult, { kind: 'done' }> | null;
  roundsDone: number;
  failure: LoadCell | null;
  interrupted: boolean;
  recorded: boolean;
}

/** The peak across rounds: each round's interval, and the mean of their last passing rates with a 95% CI (Student t across rounds, on the log scale: INTERVAL_METHOD). */
export function peakAcrossRounds(rounds: readonly PeakRound[]): LoadPeak | null {
  if (rounds.length === 0) return null;
  const passes = rounds.map((r) => r.lastPass).filter((r): r is number => r !== null);
  if (passes.length === 0) return { rounds, acrossRounds: null };
  const b = betweenRoundsOf(passes);
  return { rounds, acrossRounds: { mean: b.mean, min: Math.min(...passes), max: Math.max(...passes), ci95: b.ci95 ? { low: b.ci95.low, high: b.ci95.high } : null } };
}

function assemble(book: CellBook): LoadCell {
  if (book.failure) return book.probes.length > 0 && book.failure.state === 'errored' ? { ...book.failure, probes: book.probes } : book.failure;
  const first = book.first;
  if (first === null) return { ...book.key, state: 'skipped', reason: notRunInterrupted() };
  const cell: CompletedLoadCell = {
    ...book.key,
    state: 'completed',
    session: first.session,
    openMs: first.openMs,
    serviceMs: first.serviceMs,
    rounds: book.roundsDone,
    probes: book.probes,
    peak: peakAcrossRounds(book.peaks),
    ...(book.interrupted ? { interrupted: true } : {}),
  };
  return cell;
}

/** Runs the sweep; each cell goes to `onCell` once its last round is in (or it failed), in sweep order. */
export async function runLoadSweep(o: LoadSweepOptions): Promise<void> {
  const runGroup = o.runGroup ?? measureServerGroup;
  const groups = o.models.flatMap((model) =>
    o.engines.map((engine) => ({ model, engine, key: { model: model.name, engine, batchSize: o.plan.settings.maxBatch, requestedThreads: o.threads } satisfies LoadCellKey })));
  const books = groups.map((g): CellBook => ({ key: g.key, probes: [], peaks: [], first: null, roundsDone: 0, failure: null, interrupted: false, recorded: false }));
  const bookOf = (key: LoadCellKey) => books.find((b) => b.key.model === key.model && b.key.engine === key.engine) as CellBook;
  const total = books.length;
  let index = 0;
  const record = async (finalPass: boolean) => {
    for (const book of books) {
      if (book.recorded) continue;
      const finished = book.failure !== null || book.interrupted || book.roundsDone === o.rounds;
      if (!finished && !finalPass) break;
      book.recorded = true;
      if (finalPass && o.signal?.aborted && book.roundsDone < o.rounds) book.interrupted = true;
      const cell = assemble(book);
      o.onProgress?.({ kind: 'cell-done', index: index++, total, cell });
      await o.onCell(cell);
    }
  };
  for (let round = 0; round < o.rounds && !o.signal?.aborted; round++) {
    for (const g of rotated(groups, round)) {
      const book = bookOf(g.key);
      if (book.failure !== null || book.interrupted || o.signal?.aborted) continue;
      await runGroup(
        { model: g.model, engine: g.engine, threads: o.threads, key: g.key, round, plan: o.plan, rows: o.rows, columns: o.columns, registry: o.registry, signal: o.signal },
        {
          onStart: (key) => o.onProgress?.({ kind: 'cell-start', index, total, key, round, rounds: o.rounds }),
          onResult: async (result) => {
            if (result.kind === 'probe') {
              book.probes.push(result.probe);
              o.onProgress?.({ kind: 'probe', index, total, key: result.key, probe: result.probe });
            } else if (result.kind === 'failed') {
              book.failure ??= result.cell;
            } else {
              book.first ??= result;
              book.roundsDone++;
              if (result.peak) book.peaks.push(result.peak);
              if (result.interrupted) book.interrupted = true;
            }
          },
        },
      );
      await record(false);
    }
  }
  await record(true);
}
