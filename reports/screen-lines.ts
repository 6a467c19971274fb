/**
 * The lines every one-screen report of load, generate and train shares with
 * run's (classify/terminal-report.ts): the header (what ran, on what
 * machine), the hint naming `--details` and `inferbench show ID --view
 * NAME`, the verdict counts and the engines not run here. Each command
 * brings its answer and its compact table; the rest of its tables are views
 * (report-view-registry.ts). Pure: same record, same lines.
 */
import type { RunRecordOf } from '../src/core/results.js';
import { nothingMeasured } from '../src/core/nothing-measured.js';
import { formatBytes } from '../src/core/units.js';
import { paint, wrap } from './text-table.js';

/** Any command's record, as the header reads it. */
type AnyRecord = RunRecordOf<{ readonly state: string; readonly reason?: string }>;

/** `inferbench show 3 --view noise`: the history id when the caller knows it, else the run folder's id (show takes both). */
export function showHint(run: { readonly id: string }, view: string, historyId?: number | null): string {
  return `\`inferbench show ${historyId ?? run.id} --view ${view}\``;
}

/** Items joined by ` · `, packed into as few lines as `width` allows; an item wider than `width` wraps. */
export function packed(items: readonly string[], width: number): string[] {
  const lines: string[] = [];
  for (const item of items.flatMap((i) => (i.length > width ? wrap(i, width) : [i]))) {
    const last = lines[lines.length - 1];
    if (last !== undefined && last.length + 3 + item.length <= width) lines[lines.length - 1] = `${last} · ${item}`;
    else lines.push(item);
  }
  return lines;
}

/**
 * `inferbench 0.1.0  load 2026-… (completed) · node v22`, then the model and
 * the machine packed on as few lines as fit; a run that measured nothing says failed, as its
 * exit code does, and an interrupted one says what is missing.
 */
export function screenHeader(run: AnyRecord, command: string, width: number, color: boolean): string[] {
  const env = run.environment;
  const failed = nothingMeasured(run);
  const state = failed === null ? run.state : `failed: ${failed.allSkipped ? 'every cell was skipped' : 'no cell completed'}`;
  // The run id is its start time, so the date is left to the environment view: two lines, not three.
  const lines = [
    ...packed([`${paint(`inferbench ${env.inferbenchVersion}`, 'bold', color)}  ${command} ${run.id} (${failed === null ? state : paint(state, 'red', color)})`, `node ${env.node}`], width),
    ...packed(
      [
        `model: ${run.models.map((m) => m.name).join(', ') || '?'}`,
        `cpu: ${env.cpuModel}`,
        `${env.cores} cores`,
        `ram: ${formatBytes(env.memoryBytes)}`,
        `gpu: ${env.gpus.length > 0 ? env.gpus.join(', ') : 'none'}`,
      ],
      width,
    ),
  ];
  if (run.state === 'interrupted') lines.push(...wrap('warning: the run was interrupted; cells it did not reach are missing from every table', width).map((l) => paint(l, 'yellow', color)));
  return lines;
}

/** "Every table: --details; one: `inferbench show 3 --view NAME`, NAME one of …". */
export function viewsHint(run: { readonly id: string }, names: readonly string[], width: number, historyId?: number | null): string[] {
  return wrap(`Every table: --details; one: ${showHint(run, 'NAME', historyId)}, NAME one of ${names.join(', ')}`, width);
}

/** "13 engines not available here (…: `inferbench engines`)", or nothing. */
export function notRunLine(run: { readonly config: Readonly<Record<string, unknown>> }, width: number): string[] {
  return unavailableSummary(run, width);
}

/**
 * "Not run: 3 engines skipped (cannot train): onnx-cpu, onnx-wasm, …;
 * errored …": the cells that did not complete, one line grouped by state
 * and reason, ending with the view that lists each in full; nothing when
 * every cell completed.
 */
export function notCompletedLine(
  cells: readonly { readonly state: string; readonly reason?: string; readonly engine: string }[],
  width: number,
  color: boolean,
  hint: string,
): string[] {
  const failed = cells.filter((c) => c.state !== 'completed');
  if (failed.length === 0) return [];
  const groups = new Map<string, Set<string>>();
  for (const c of failed) {
    const reason = (c.reason ?? 'no reason recorded').split(/[.;:]\s/u)[0]?.slice(0, 60) ?? '';
    const key = `${c.state}\u0000${reason}`;
    groups.set(key, (groups.get(key) ?? new Set()).add(c.engine));
  }
  const parts = [...groups].map(([key, engines]) => {
    const [state = '', reason = ''] = key.split('\u0000');
    return `${state} (${reason}): ${[...engines].join(', ')}`;
  });
  return wrap(`Not completed: ${failed.length} cell${failed.length === 1 ? '' : 's'}, ${parts.join('; ')}; ${hint}`, width).map((l) => l.replace('Not completed:', paint('Not completed:', 'yellow', color)));
}

/** "Verdicts: 3 of 4 cells VALID, 1 NOISY; `inferbench show 3 --view noise`", counting what the tables count. */
export function verdictCountLine(counts: ReadonlyMap<string, number>, total: number, noun: string, width: number, color: boolean, hint: string): string[] {
  if (total === 0) return [];
  const parts = [...counts].filter(([, n]) => n > 0).map(([word, n], i) => (i === 0 ? `${n} of ${total} ${noun}${total === 1 ? '' : 's'} ${word}` : `${n} ${word}`));
  if (parts.length === 0) return [];
  const allGood = counts.size === 1 && counts.has('VALID');
  return wrap(`Verdicts: ${parts.join(', ')}; ${hint}`, width).map((l) => (allGood ? l : l.replace('Verdicts:', paint('Verdicts:', 'yellow', color))));
}

/**
 * The reasons view of load, generate and train: each cell that did not
 * complete, grouped by state and reason, the reason whole (the tables cut
 * it to their width), so the "Not completed" line's hint leads to the words.
 */
export function reasonsInFull<C extends { readonly state: string; readonly reason?: string }>(cells: readonly C[], name: (cell: C) => string, width: number): string[] {
  const groups = new Map<string, string[]>();
  for (const c of cells) {
    if (c.state === 'completed') continue;
    const key = `${c.state}\u0000${c.reason ?? 'no reason recorded'}`;
    groups.set(key, [...(groups.get(key) ?? []), name(c)]);
  }
  return [...groups].flatMap(([key, names]) => {
    const [state = '', reason = ''] = key.split('\u0000');
    return [...wrap(`${state} (${names.join(', ')}):`, width), ...wrap(reason, width - 4).map((l) => `    ${l}`)];
  });
}

/** "11 engines not available here: `inferbench engines`", or nothing when every engine could run. */
export function unavailableSummary(run: { readonly config: Readonly<Record<string, unknown>> }, width: number): string[] {
  const listed = run.config['unavailableEngines'];
  const n = Array.isArray(listed) ? listed.length : 0;
  if (n === 0) return [];
  return wrap(`${count(n, 'engine')} not available here (why, and how to enable each: \`inferbench engines\`)`, width);
}

/** `1 engine`, `3 cells`: a count with its word. */
export function count(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}
