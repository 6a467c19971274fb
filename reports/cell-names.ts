/**
 * How every line that speaks of one cell names it: progress lines, verdict
 * lines, "Reasons in full", parity warnings. One place decides which parts
 * of a cell's key vary in a sweep (model and its precision variant, threads,
 * sequence length, host) and names only those, so a default run keeps short
 * lines and a sweep over models × lengths × precisions never prints two
 * lines that read the same for different cells. The tables read the same
 * rule through `varyingKeys` (their identity columns).
 */
import type { CellKey } from '../src/core/results.js';
import { browserEngineName } from './browser-label.js';

/** The parts of a cell's key, besides engine and batch size, that differ between the cells of a run. */
export interface VaryingKeys {
  /** Several models or precision variants (`--dtype` rows are models named `tiny · q8`). */
  readonly model: boolean;
  /** Several requested thread counts. */
  readonly threads: boolean;
  /** Several fixed sequence lengths (`--sequence-lengths`). */
  readonly sequenceLength: boolean;
  /** Measured by queue workers (`run --queue`): the machine is part of the cell. */
  readonly host: boolean;
}

/** The part of a cell that names it (its key, host included). */
export type NamedCell = CellKey;

/** What varies across `cells` (a whole run's, or the ones planned so far). */
export function varyingKeys(cells: readonly NamedCell[]): VaryingKeys {
  const distinct = <T>(f: (c: NamedCell) => T): number => new Set(cells.map(f)).size;
  return {
    model: distinct((c) => c.model) > 1,
    threads: distinct((c) => c.requestedThreads) > 1,
    sequenceLength: distinct((c) => c.sequenceLength ?? null) > 1,
    host: cells.some((c) => c.host !== undefined),
  };
}

/** What varies in a sweep before any cell ran: from its planned models, thread counts, lengths and whether workers run it. */
export function plannedKeys(plan: {
  readonly models: number;
  readonly threads: number;
  readonly sequenceLengths: number;
  readonly queue: boolean;
}): VaryingKeys {
  return { model: plan.models > 1, threads: plan.threads > 1, sequenceLength: plan.sequenceLengths > 1, host: plan.queue };
}

function threadsWord(t: number | null): string {
  return `${t === null ? 'default' : t} thread${t === 1 ? '' : 's'}`;
}

/**
 * `tiny · q8: onnx-cpu (2 threads) @ box-a, batch 1, seq 8`, naming only
 * what varies: a one-model run at default settings reads `onnx-cpu, batch 1`.
 */
export function cellName(cell: NamedCell, varying: VaryingKeys): string {
  const model = varying.model ? `${cell.model}: ` : '';
  const threads = varying.threads ? ` (${threadsWord(cell.requestedThreads)})` : '';
  const host = varying.host ? ` @ ${cell.host?.name ?? 'coordinator'}` : '';
  const seq = varying.sequenceLength ? `, seq ${cell.sequenceLength ?? 'text'}` : '';
  return `${model}${browserEngineName(cell.engine)}${threads}${host}, batch ${cell.batchSize}${seq}`;
}

/** Names for the cells of one run, by what varies across all of them. */
export function cellNamer(run: { readonly cells: readonly NamedCell[] }): (cell: NamedCell) => string {
  const varying = varyingKeys(run.cells);
  return (cell) => cellName(cell, varying);
}

/**
 * One line per distinct reason, with the cells it applies to: a single cell
 * reads `name: reason`; several read the reason once, then their names, so
 * 24 cells sharing a reason take one paragraph instead of 24 lines.
 */
export function groupByReason<T>(items: readonly T[], reasonOf: (item: T) => string, nameOf: (item: T) => string): { readonly reason: string; readonly cells: readonly string[] }[] {
  const groups = new Map<string, string[]>();
  for (const item of items) {
    const reason = reasonOf(item);
    groups.set(reason, [...(groups.get(reason) ?? []), nameOf(item)]);
  }
  return [...groups].map(([reason, cells]) => ({ reason, cells }));
}
