/**
 * The one table every view of `run --profile` reads (profile.csv, the
 * terminal's WHERE THE TIME GOES, time-breakdown.png, compare): per
 * (model, engine, variant, batch size, op type) the calls and milliseconds
 * per batch and their share of the profiled engine time, plus one
 * `(outside kernels)` row per (engine, batch size), so the shares of each
 * sum to 1. An unattributed cell gets one row, `unattributed: <reason>`,
 * holding its whole engine time: never a 0.
 */
import type { CompletedCell, RunRecord } from '../src/core/results.js';
import { OUTSIDE_KERNELS, type CellProfile } from '../src/core/op-profile.js';
import { OP_CLASSES, opClassOf } from '../src/core/op-taxonomy.js';
import { engineLabeller, orderedCells } from './run-summary.js';

/** The class column of the remainder row, and its op type. */
export const OUTSIDE_CLASS = 'outside kernels';

/** One row of profile.csv. */
export interface ProfileRow {
  readonly model: string;
  /** The engine as every chart labels it (with its host in a distributed run). */
  readonly engine: string;
  /** The `--dtype` variant, null without one. */
  readonly variant: string | null;
  readonly batchSize: number;
  readonly opType: string;
  readonly opClass: string;
  readonly callsPerBatch: number | null;
  readonly msPerBatch: number;
  readonly share: number;
  readonly source: string;
}

/** A profiled cell with its label, for the views that need the whole profile. */
export interface ProfiledCell {
  readonly cell: CompletedCell & { readonly profile: CellProfile };
  readonly engine: string;
  readonly variant: string | null;
}

/** The completed cells that carry a profile, in the report's order. */
export function profiledCells(run: RunRecord): ProfiledCell[] {
  const label = engineLabeller(run);
  const variantOf = new Map(run.models.map((m) => [m.name, m.variant?.dtype ?? null]));
  return orderedCells(run).flatMap((c) =>
    c.state === 'completed' && c.profile ? [{ cell: c as ProfiledCell['cell'], engine: label(c), variant: variantOf.get(c.model) ?? null }] : [],
  );
}

/** True when any cell of the run was profiled. */
export function hasProfiles(run: RunRecord): boolean {
  return run.cells.some((c) => c.state === 'completed' && c.profile !== undefined);
}

/** The rows of one profiled cell: its op types, most time first, then the remainder (or the unattributed row). */
export function profileRowsOf(p: ProfiledCell): ProfileRow[] {
  const profile = p.cell.profile;
  const base = { model: p.cell.model, engine: p.engine, variant: p.variant, batchSize: p.cell.batchSize, source: profile.source };
  if (profile.unattributed !== undefined) {
    return [{ ...base, opType: `unattributed: ${profile.unattributed}`, opClass: OUTSIDE_CLASS, callsPerBatch: null, msPerBatch: profile.engineMsPerBatch, share: 1 }];
  }
  const rows: ProfileRow[] = profile.ops.map((op) => ({ ...base, opType: op.opType, opClass: op.opClass, callsPerBatch: op.callsPerBatch, msPerBatch: op.msPerBatch, share: op.share }));
  const kernelShare = rows.reduce((a, r) => a + r.share, 0);
  rows.push({ ...base, opType: OUTSIDE_KERNELS, opClass: OUTSIDE_CLASS, callsPerBatch: null, msPerBatch: profile.outsideMsPerBatch, share: Math.max(0, 1 - kernelShare) });
  return rows;
}

/** Every row of profile.csv, cell after cell. */
export function profileRows(run: RunRecord): ProfileRow[] {
  return profiledCells(run).flatMap(profileRowsOf);
}

/** Milliseconds per batch and share per op class of one cell, the outside-kernels row last. */
export function classRowsOf(p: ProfiledCell): { readonly opClass: string; readonly msPerBatch: number; readonly share: number }[] {
  const sums = new Map<string, { ms: number; share: number }>();
  for (const r of profileRowsOf(p)) {
    const s = sums.get(r.opClass) ?? { ms: 0, share: 0 };
    s.ms += r.msPerBatch;
    s.share += r.share;
    sums.set(r.opClass, s);
  }
  return [...sums].map(([opClass, s]) => ({ opClass, msPerBatch: s.ms, share: s.share }));
}

/** The op types the taxonomy lacks, over every profiled cell (the report names them). */
export function unclassifiedOps(run: RunRecord): string[] {
  return [...new Set(profiledCells(run).flatMap((p) => p.cell.profile.unclassified))].filter((t) => !opClassOf(t).known).sort();
}

/** The timed engine time per batch a profiled one sits beside: a pipeline's own forward, else the mean of round means. */
export function timedMsPerBatch(p: ProfiledCell): number {
  return p.cell.forward?.mean ?? p.cell.betweenRounds?.mean ?? p.cell.latency.mean;
}

/** The profiled cells of one model, variant and batch size: one WHERE THE TIME GOES table, engines as its columns. */
export interface ProfileGroup {
  /** `batch 8`, with the variant and (in a several-model run) the model before it. */
  readonly key: string;
  readonly cells: readonly ProfiledCell[];
  /** The op classes any of its cells holds, in the taxonomy's order, the outside-kernels class last. */
  readonly classes: readonly string[];
  /** Per cell (in `cells`' order), its class rows by class. */
  readonly byClass: readonly ReadonlyMap<string, { readonly msPerBatch: number; readonly share: number }>[];
}

/** The run's WHERE THE TIME GOES tables, in the report's order: the terminal and the dashboard read these. */
export function profileGroups(run: RunRecord): ProfileGroup[] {
  const cells = profiledCells(run);
  const models = new Set(cells.map((p) => p.cell.model)).size;
  const groups = new Map<string, ProfiledCell[]>();
  for (const p of cells) {
    const key = [models > 1 ? p.cell.model : null, p.variant, `batch ${p.cell.batchSize}`].filter((x) => x !== null).join(' · ');
    groups.set(key, [...(groups.get(key) ?? []), p]);
  }
  return [...groups].map(([key, group]) => {
    const byClass = group.map((p) => new Map(classRowsOf(p).map((r) => [r.opClass, r])));
    const classes = [...OP_CLASSES, OUTSIDE_CLASS].filter((c) => byClass.some((m) => m.has(c)));
    return { key, cells: group, classes, byClass };
  });
}
