/**
 * Shapes a RunRecord once for every renderer: row order and engine labels.
 * Terminal, CSV and chart all read these, so they never disagree on the
 * order rows appear in (the figures themselves come from views.ts).
 */
import type { CellResult, RunRecord } from '../src/core/results.js';
import type { SessionDescription } from '../src/core/engine-session.js';
import { softwareSuffix } from '../src/core/gpu-adapter.js';
import { browserLabeller } from './browser-label.js';

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
  // A WebGPU engine on a software adapter never reads as a GPU: its name carries `software adapter (SwiftShader)` in every table and chart.
  const engineName = browserLabeller(run);
  return (cell) => {
    const name = `${engineName(cell)}${softwareSuffix(sessionOf(cell)?.adapter)}`;
    if ((threadSettings.get(cell.engine)?.size ?? 0) <= 1) return name;
    const t = cell.requestedThreads;
    return `${name} (${t === null ? 'default' : t} thread${t === 1 ? '' : 's'})`;
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

/** The session a cell reports, if it got far enough to open one. */
export function sessionOf(cell: CellResult): SessionDescription | undefined {
  return cell.state === 'skipped' ? undefined : cell.session;
}

/** `name@version` pairs joined by `separator`, in the engine's own order. */
export function formatVersions(versions: Readonly<Record<string, string>>, separator: string): string {
  return Object.entries(versions)
    .map(([name, version]) => `${name}@${version}`)
    .join(separator);
}
