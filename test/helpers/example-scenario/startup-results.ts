/**
 * The example scenario's record type: one cell per engine, holding every
 * round's sample as measured (the process it ran in included) and the
 * figures derived from them in one place (`startupCell`), so the report,
 * the files, the dashboard and the history's headline read one table.
 */
import type { RunRecordOf } from '../../../src/core/results.js';
import { percentileOfSorted } from '../../../src/core/statistics.js';

export const STARTUP = 'startup';

/** One start of one engine, as the process that timed it reports it. */
export interface StartupSample {
  readonly engine: string;
  readonly round: number;
  /** Wall time of the engine's probe, ms; null when the probe could not be timed (the child died). */
  readonly probeMs: number | null;
  readonly pid: number;
  /** True when timed in a process other than the run's (an isolated child, a worker's child): a cold start. */
  readonly inChild: boolean;
  readonly available: boolean;
  /** The engine's runtime versions as its probe read them back. */
  readonly versions?: Readonly<Record<string, string>>;
  /** Why the engine is not available, or why the sample is missing. */
  readonly reason?: string;
}

/** An engine's cell: its samples and their figures. */
export type StartupCell =
  | { readonly state: 'completed'; readonly engine: string; readonly model: string; readonly batchSize: number; readonly requestedThreads: null; readonly samples: readonly StartupSample[]; readonly meanMs: number; readonly p95Ms: number; readonly cold: boolean }
  | { readonly state: 'failed' | 'skipped'; readonly engine: string; readonly model: string; readonly batchSize: number; readonly requestedThreads: null; readonly samples: readonly StartupSample[]; readonly reason: string };

export type StartupRecord = RunRecordOf<StartupCell> & { readonly kind: typeof STARTUP };

/** The row the model column shows: a start loads no model. */
export const NO_MODEL = 'no model';

/** The cell of one engine's samples: skipped when the engine is unavailable, failed when a round was not timed. */
export function startupCell(engine: string, samples: readonly StartupSample[]): StartupCell {
  const key = { engine, model: NO_MODEL, batchSize: 1, requestedThreads: null, samples } as const;
  const unavailable = samples.find((s) => !s.available && s.probeMs !== null);
  if (unavailable) return { ...key, state: 'skipped', reason: unavailable.reason ?? 'not available' };
  const missing = samples.find((s) => s.probeMs === null);
  if (missing || samples.length === 0) return { ...key, state: 'failed', reason: missing?.reason ?? 'no round was timed' };
  const times = samples.map((s) => s.probeMs as number).sort((a, b) => a - b);
  return { ...key, state: 'completed', meanMs: times.reduce((a, b) => a + b, 0) / times.length, p95Ms: percentileOfSorted(times, 95), cold: samples.every((s) => s.inChild) };
}
