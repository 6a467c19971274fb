/**
 * The named views of the `run` report (the mechanism is
 * ../report-view-registry.ts, which load, generate and train use too): each
 * a section that `--details` prints in registration order and
 * `inferbench show ID --view NAME` prints alone. The report a run ends with is one screen (terminal-report.ts: the
 * answer, a compact speed table, one line each for parity, verdicts and the
 * engines not run here); a view joins that screen only when its `inSummary`
 * says so for the run at hand (a profile section for a run with --profile).
 * A new section plugs in with one `registerReportView` call; nothing here
 * knows any section, so this module imports none of them.
 */
import type { RunRecord } from '../../core/results.js';
import { ReportViewRegistry, type ReportView } from '../../../reports/report-view-registry.js';

export type { ReportView, ViewContext } from '../../../reports/report-view-registry.js';

const RUN_VIEWS = new ReportViewRegistry<RunRecord>('run');

/**
 * Adds a view of the `run` report; `after` puts it after the named one (else
 * at the end), which is where --details prints it. A name registered twice
 * is a programming error.
 */
export function registerReportView(view: ReportView, after?: string): void {
  RUN_VIEWS.register(view, after);
}

/** Every view of the `run` report, in the order --details prints them. */
export function reportViews(): readonly ReportView[] {
  return RUN_VIEWS.views();
}

/** The `run` report's view called `name`, or undefined. */
export function reportView(name: string): ReportView | undefined {
  return RUN_VIEWS.view(name);
}
