/**
 * A measured cell's headline as the history's cell columns hold it (mean
 * and p95 of its main time, and its rate), by the command of the scenario
 * that measured it. Each scenario says what its headline is when it
 * registers (scenario-registry.ts `cellHeadline`); the history store looks
 * it up by the command its entry's config names, and never guesses a
 * cell's kind from its fields ('probes' in a cell, 'ttft' in a cell), which
 * a plug-in's cell could carry for reasons of its own. A command with no
 * headline (a plug-in's that gives none) keeps its figures in the cell's
 * JSON alone.
 */

/** The figures the history keeps beside a cell's JSON. */
export interface CellHeadline {
  /** The scenario's main time, its mean (engine time per batch, TTFT, step time, p50 latency at the peak rate). */
  readonly meanMs: number | null;
  readonly p95Ms: number | null;
  /** Its rate (samples/s, decode tokens/s, requests/s); the list's "best" is the highest. */
  readonly perSecond: number | null;
}

/** No headline: a cell that did not complete, or a command that gives none. */
export const NO_HEADLINE: CellHeadline = { meanMs: null, p95Ms: null, perSecond: null };

const byCommand = new Map<string, (cell: never) => CellHeadline>();

/** Says how a command's completed cells are headlined; called by registerScenario. */
export function registerCellHeadline<C>(command: string, headline: (cell: C) => CellHeadline): void {
  byCommand.set(command, headline as (cell: never) => CellHeadline);
}

/** The command a stored config names: its `command`, absent for `run` (the classification scenario). */
export function storedCommand(config: object): string {
  const command = (config as { readonly command?: unknown }).command;
  return typeof command === 'string' ? command : 'run';
}

/** The headline of one cell of a `command` run. */
export function cellHeadline(command: string, cell: { readonly state: string }): CellHeadline {
  const headline = byCommand.get(command);
  return cell.state === 'completed' && headline !== undefined ? headline(cell as never) : NO_HEADLINE;
}
