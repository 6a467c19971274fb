/**
 * Drives one Benchmark over several models (variants, architectures, Hub
 * and local folders) and, with `--sequence-lengths`, over a grid of fixed
 * sequence lengths: `Benchmark.run(model, engines)` once per model and
 * length, cells concatenated in that order. Rows that cannot run are recorded
 * as skipped cells with their reason, so every table shows them.
 */
import { Benchmark } from './benchmark.js';
import type { BenchmarkOptions, ProgressEvent } from './benchmark-options.js';
import { FixedLengthModel } from '../models/fixed-length-model.js';
import type { CellKey, CellResult } from '../core/results.js';
import type { PlannedModel } from '../scenarios/model-plan.js';

export interface SweepOptions {
  /** Options shared by every model; `onCell` and `onProgress` are set by the sweep. */
  readonly benchmark: Omit<BenchmarkOptions, 'onCell' | 'onProgress'>;
  readonly engines: readonly string[];
  /** Fixed sequence lengths of synthetic inputs; null uses the dataset's texts. */
  readonly sequenceLengths: readonly number[] | null;
  /** Saves one cell (already tagged with its sequence length). */
  readonly record: (cell: CellResult) => void | Promise<void>;
  /** Progress with indexes over the whole sweep, not per model. */
  readonly onProgress?: (event: ProgressEvent) => void;
}

/** A cell with its fixed sequence length, or unchanged when inputs come from text. */
export function withSequenceLength(cell: CellResult, sequenceLength: number | null): CellResult {
  return sequenceLength === null ? cell : { ...cell, sequenceLength };
}

/** A progress event naming its cell's sequence length, as the recorded cell does. */
function withSequenceLengthEvent(event: ProgressEvent, sequenceLength: number | null): ProgressEvent {
  if (sequenceLength === null || event.kind === 'cell-start') return event;
  return event.kind === 'cell-done' ? { ...event, cell: withSequenceLength(event.cell, sequenceLength) } : { ...event, sequenceLength };
}

/** Measures every planned model (× sequence length) on every engine, in order. */
export async function sweepModels(plan: readonly PlannedModel[], options: SweepOptions): Promise<void> {
  let offset = 0;
  let currentSeq: number | null = null;
  const lengths: readonly (number | null)[] = options.sequenceLengths ?? [null];
  const benchmark = new Benchmark({
    ...options.benchmark,
    onProgress: (event) => options.onProgress?.(withSequenceLengthEvent({ ...event, index: offset + event.index, total }, currentSeq)),
    onCell: async (cell) => options.record(withSequenceLength(cell, currentSeq)),
  });
  const { threads, batchSizes } = benchmark.options;
  const perModel = options.engines.length * threads.length * batchSizes.length;
  const total = plan.length * lengths.length * perModel;

  const recordSkipped = async (name: string, reason: string): Promise<void> => {
    for (const engine of options.engines) {
      for (const requestedThreads of threads) {
        for (const batchSize of batchSizes) {
          const key: CellKey = { model: name, engine, batchSize, requestedThreads };
          const cell = withSequenceLength({ ...key, state: 'skipped', reason }, currentSeq);
          await options.record(cell);
          options.onProgress?.({ kind: 'cell-done', index: offset++, total, cell });
        }
      }
    }
  };

  for (const planned of plan) {
    for (const seq of lengths) {
      currentSeq = seq;
      const model = planned.model;
      if (!model) {
        await recordSkipped(planned.info.name, planned.skipReason ?? 'not run');
        continue;
      }
      if (seq !== null && seq > model.maxLength) {
        await recordSkipped(planned.info.name, `sequence length ${seq} exceeds ${planned.info.name}'s maximum of ${model.maxLength} positions`);
        continue;
      }
      const target = seq === null ? model : new FixedLengthModel(model, seq, model.vocabSize, model.maxLength);
      await benchmark.run(target, options.engines);
      offset += perModel;
    }
  }
}
