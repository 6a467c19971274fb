/**
 * What the page draws of a benchmark before its views arrive, as its
 * scenario says it (src/runs/scenario-registry.ts): its tabs, each keying a
 * panel of the views (reports/dashboard-panels.ts), with Compare after them
 * when the scenario compares; its settings line; and the route its form
 * starts one at. The page draws these as they are, so it names no scenario
 * and a scenario defined outside it (a plug-in's, a test's) gets its tabs.
 */
import type { DashboardTab } from '../../reports/dashboard-panels.js';
import { scenarioOfConfig } from '../runs/scenario-registry.js';

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
