/**
 * The named views of the `run` report: each a section that `--details`
 * prints in registration order and `inferbench show ID --view NAME` prints
 * alone. The report a run ends with is one screen (terminal-report.ts: the
 * answer, a compact speed table, one line each for parity, verdicts and the
 * engines not run here); a view joins that screen only when its `inSummary`
 * says so for the run at hand (a profile section for a run with --profile).
 * A new section plugs in with one `registerReportView` call; nothing here
 * knows any section, so this module imports none of them.
 */
import type { RunRecord } from '../../src/core/results.js';

/** What a view renders with: the run and the widths the report laid its speed table out at. */
export interface ViewContext {
  readonly run: RunRecord;
  /** The widest a line may be (the terminal, or unlimited with --wide). */
  readonly width: number;
  /** The width of the speed table, which tables below it grow to for a tidy column of rules. */
  readonly sectionWidth: number;
  readonly color: boolean;
}

export interface ReportView {
  /** The name `show --view` takes: one lowercase word or words joined by '-'. */
  readonly name: string;
  /** What it shows, for `show --help` and the error naming the views. */
  readonly about: string;
  /** Also on the one-screen report for this run (default: only with --details and show --view). */
  readonly inSummary?: (run: RunRecord) => boolean;
  /** Left out of --details because another view already prints it (a view that is a part of another). */
  readonly partOf?: string;
  /** Its lines, or none when the run has nothing for it. */
  readonly render: (c: ViewContext) => string[];
}

const registered: ReportView[] = [];

/**
 * Adds a view; `after` puts it after the named one (else at the end), which
 * is where --details prints it. A name registered twice is a programming error.
 */
export function registerReportView(view: ReportView, after?: string): void {
  if (!/^[a-z]+(-[a-z]+)*$/u.test(view.name)) throw new Error(`report view name "${view.name}" must be lowercase words joined by '-'`);
  if (registered.some((v) => v.name === view.name)) throw new Error(`report view "${view.name}" is registered twice`);
  const at = after === undefined ? -1 : registered.findIndex((v) => v.name === after);
  if (at < 0) registered.push(view);
  else registered.splice(at + 1, 0, view);
}

/** Every view, in the order --details prints them. */
export function reportViews(): readonly ReportView[] {
  return registered;
}

/** The view called `name`, or undefined. */
export function reportView(name: string): ReportView | undefined {
  return registered.find((v) => v.name === name);
}
