/**
 * The example scenario on the dashboard: its tab, its header's settings
 * line and its panel (said in the terms of reports/dashboard-panels.ts,
 * which the page draws with no word of this scenario), and the headline
 * the history's cell columns keep of a cell.
 */
import { figure, left, right, type DashboardTab, type Panel } from '../../../reports/dashboard-panels.js';
import type { CellHeadline } from '../../../src/scenarios/cell-headline.js';
import type { StartupConfig } from './startup-run.js';
import type { StartupCell, StartupRecord } from './startup-results.js';

export const STARTUP_TABS: readonly DashboardTab[] = [{ id: 'starts', title: 'Starts' }];

/** The header's line: `2 rounds · isolated`. */
export function startupSettingsText(c: StartupConfig): string {
  return `${c.rounds} round${c.rounds === 1 ? '' : 's'} · ${c.isolate ? 'isolated' : 'in process'}`;
}

/** The history's columns: the mean and p95 start; a start has no rate. */
export function startupHeadline(cell: Extract<StartupCell, { state: 'completed' }>): CellHeadline {
  return { meanMs: cell.meanMs, p95Ms: cell.p95Ms, perSecond: null };
}

/** The Starts tab: a row per engine, its figures formatted by the page from their unit. */
function startsPanel(record: StartupRecord): Panel {
  return {
    chart: { spec: null, empty: 'Starts are not drawn.' },
    below: [
      { note: 'Each start is one probe of the engine: the import of its runtime and its hardware check, timed in the process named.' },
      {
        table: {
          className: 'startup-table',
          columns: [left('engine'), right('rounds'), right('mean'), right('p95'), left('process')],
          rows: record.cells.map((c) =>
            c.state === 'completed'
              ? { cells: [c.engine, String(c.samples.length), figure(c.meanMs, 'ms'), figure(c.p95Ms, 'ms'), c.cold ? 'fresh child' : 'the run’s'] }
              : { cells: [c.engine], reason: `${c.state}: ${c.reason}` },
          ),
        },
      },
    ],
  };
}

/** `GET /api/runs/<id>/views`: the panel of each tab. */
export function startupViews(record: StartupRecord): Record<string, unknown> {
  return { panels: { starts: startsPanel(record) } };
}
