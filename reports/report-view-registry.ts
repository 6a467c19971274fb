/**
 * A command's named report views, the mechanism every one-screen report
 * shares (run, load, generate, train): each view is a table or section that
 * `--details` prints in registration order and `inferbench show ID --view
 * NAME` prints alone. Each command keeps a registry of its own beside its
 * report (run's in classify/report-views.ts), so a new section plugs in
 * with one `register` call and nothing here knows any section.
 */
import { UserError } from '../src/core/errors.js';
import type { RunRecord } from '../src/core/results.js';

/** What a view renders with: the record and the widths the report laid its main table out at. */
export interface ViewContext<R = RunRecord> {
  readonly run: R;
  /** The widest a line may be (the terminal, or unlimited with --wide). */
  readonly width: number;
  /** The width of the main table (run's speed table), which tables below it grow to for a tidy column of rules. */
  readonly sectionWidth: number;
  readonly color: boolean;
}

export interface ReportView<R = RunRecord> {
  /** The name `show --view` takes: one lowercase word or words joined by '-'. */
  readonly name: string;
  /** What it shows, for `show --help` and the error naming the views. */
  readonly about: string;
  /** Also on the one-screen report for this run (default: only with --details and show --view). */
  readonly inSummary?: (run: R) => boolean;
  /** Left out of --details because another view already prints it (a view that is a part of another). */
  readonly partOf?: string;
  /** Its lines, or none when the run has nothing for it. */
  readonly render: (c: ViewContext<R>) => string[];
}

/**
 * One command's views, in the order --details prints them. Each command
 * that has a one-screen report keeps one (run's in classify/report-views.ts;
 * load, generate and train beside their reports), so a view name means one table per command.
 */
export class ReportViewRegistry<R> {
  private readonly registered: ReportView<R>[] = [];

  /** `command`: the word `show` names in its errors (`run`, `load`, …). */
  constructor(readonly command: string) {}

  /**
   * Adds a view; `after` puts it after the named one (else at the end), which
   * is where --details prints it. A name registered twice is a programming error.
   */
  register(view: ReportView<R>, after?: string): void {
    if (!/^[a-z]+(-[a-z]+)*$/u.test(view.name)) throw new Error(`report view name "${view.name}" must be lowercase words joined by '-'`);
    if (this.registered.some((v) => v.name === view.name)) throw new Error(`report view "${view.name}" of ${this.command} is registered twice`);
    const at = after === undefined ? -1 : this.registered.findIndex((v) => v.name === after);
    if (at < 0) this.registered.push(view);
    else this.registered.splice(at + 1, 0, view);
  }

  /** Every view, in the order --details prints them. */
  views(): readonly ReportView<R>[] {
    return this.registered;
  }

  /** The view called `name`, or undefined. */
  view(name: string): ReportView<R> | undefined {
    return this.registered.find((v) => v.name === name);
  }

  /** The names `show --view` takes. */
  names(): string[] {
    return this.registered.map((v) => v.name);
  }

  /** The views --details prints, in order (a view that is part of another is left out). */
  detailViews(): readonly ReportView<R>[] {
    return this.registered.filter((v) => v.partOf === undefined);
  }

  /** One view's lines, or one line saying the run has nothing for it; an unknown name is a UserError naming every view. */
  renderOne(name: string, c: ViewContext<R>): string[] {
    const view = this.view(name);
    if (view === undefined) throw unknownView(name, ['summary', 'all', ...this.names()]);
    const lines = view.render(c);
    return lines.length > 0 ? lines : [`This run has nothing for the ${name} view (${view.about}).`];
  }
}

/**
 * The report `show` prints for `--view` and `--details`: the one screen
 * (`summary`, the default), every view (`all`, as --details) or one view
 * by name. Shared by the scenarios whose whole report is their views.
 */
export function chooseReport<T>(asked: string | undefined, details: boolean, render: { readonly screen: (details: boolean) => T; readonly one: (name: string) => T }): T {
  if (asked === undefined || asked === 'summary' || asked === 'all') return render.screen(asked === 'all' || (asked === undefined && details));
  return render.one(asked);
}

/** `show --view NAME` with a name no view has: exit 2, naming every valid one. */
export function unknownView(asked: string, valid: readonly string[]): UserError {
  return new UserError(`--view must be one of ${valid.join(', ')}, got "${asked}"`, `e.g. --view ${valid.find((n) => n !== 'all' && n !== 'summary') ?? 'all'}`);
}

