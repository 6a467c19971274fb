/**
 * What the page draws of a benchmark before its views arrive, as its
 * scenario says it (src/runs/scenario-registry.ts): its tabs, each keying a
 * panel of the views (reports/dashboard-panels.ts), with Compare after them
 * when the scenario compares; its settings line; and the route its form
 * starts one at. The page draws these as they are, so it names no scenario
 * and a scenario defined outside it (a plug-in's, a test's) gets its tabs.
 */
import { figure, left, right, type DashboardTab, type Panel, type Row } from '../../reports/dashboard-panels.js';
import { cellHeadline } from '../scenarios/cell-headline.js';
import { scenarioOfConfig, type Scenario, type ScenarioRecord } from '../scenarios/scenario-registry.js';

/** The tab a scenario without tabs of its own gets: its views' `views` panel. */
const ONE_TAB: DashboardTab = { id: 'views', title: 'Views' };
const COMPARE_TAB: DashboardTab = { id: 'compare', title: 'Compare' };

export interface EntryView {
  readonly tabs: readonly DashboardTab[];
  /** `batch 1, 8 · cores 1, 2 · 64 rows per cell`; without the scenario's own, its `show` setting lines on one line. */
  readonly settingsText: string;
  /** The word of `POST /api/<route>` that starts one of its scenario; null when none does. */
  readonly route: string | null;
}

/** The tabs, settings line and route of an entry of this stored config. */
export function entryView(config: object): EntryView {
  const scenario = scenarioOfConfig(config);
  const own = scenario.tabs !== undefined && scenario.tabs.length > 0 ? scenario.tabs : [ONE_TAB];
  const settingsText = scenario.settingsText?.(config) ?? scenario.settingLines(config).map((l) => l.trim().replace(/\s{2,}/g, ' ')).join(' · ');
  return { tabs: [...own, ...(scenario.compare?.json === undefined ? [] : [COMPARE_TAB])], settingsText, route: scenario.api?.route ?? null };
}

/** What every scenario's cell says of itself, read as plain JSON (the run driver's cells carry these). */
interface AnyCell {
  readonly model?: unknown;
  readonly engine?: unknown;
  readonly batchSize?: unknown;
  readonly requestedThreads?: unknown;
  readonly state?: unknown;
  readonly reason?: unknown;
}

const text = (value: unknown, none = '–'): string => (value === undefined || value === null ? none : String(value));

/**
 * The panel of a scenario that describes none of its own: a row per cell
 * naming it (model, engine, batch size, threads asked for) and how it
 * ended, with the history's headline figures (the scenario's main time,
 * its p95 and its rate, history/cell-headline.ts) when the scenario gives
 * them. So a plug-in's or a test's scenario is drawn as a table at once.
 */
export function cellsPanel(scenario: Scenario, record: ScenarioRecord): Panel {
  const cells = record.cells as readonly AnyCell[];
  const rows = cells.map((cell): Row => {
    const named = [text(cell.model), text(cell.engine), text(cell.batchSize), text(cell.requestedThreads, 'default')];
    if (cell.state !== 'completed') return { cells: named, reason: `${text(cell.state)}: ${text(cell.reason, '')}` };
    const h = cellHeadline(scenario.command, { ...cell, state: 'completed' });
    return { cells: [...named, 'completed', figure(h.meanMs, 'ms', '–'), figure(h.p95Ms, 'ms', '–'), figure(h.perSecond, '/s', '–')] };
  });
  const columns = [left('model'), left('engine'), right('batch'), right('threads'), left('state'), right('mean'), right('p95'), right('rate')];
  return { chart: { spec: null }, below: [{ table: { columns, rows, empty: 'No cell measured yet.' } }] };
}

/** A scenario's views with the one tab's panel added when the scenario describes no tabs and no panels of its own. */
export function withDefaultPanel(scenario: Scenario, record: ScenarioRecord, views: Record<string, unknown>): Record<string, unknown> {
  const own = scenario.tabs !== undefined && scenario.tabs.length > 0;
  return own || views['panels'] !== undefined ? views : { ...views, panels: { [ONE_TAB.id]: cellsPanel(scenario, record) } };
}
