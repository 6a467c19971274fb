import { DEFAULT_OUT_DIR } from '../core/output-folder.js';
import type { NothingMeasured } from '../core/nothing-measured.js';
import type { RecordedOutcome, RecordOptions } from '../runs/history/recorded-run.js';
import { stopCause } from '../core/stop-cause.js';
import { EXIT_INTERRUPTED, stopOnSignals } from './stop-signals.js';
import { ProgressArea, reportWidth } from './terminal-width.js';
import { wrap } from '../../reports/text-table.js';
import path from 'node:path';
import type { EngineRegistry } from '../core/engine-registry.js';

/**
 * "Wrote to DIR/: results.json, results.csv, …": the files of one folder on
 * as few lines as the width allows (a list of nine paths took a third of
 * the one-screen report); files in several folders keep a path a line.
 */
export function writtenLines(paths: readonly string[], layout: { readonly width: number; readonly wide: boolean } = reportWidth(null)): string[] {
  const dirs = [...new Set(paths.map((p) => path.dirname(p)))];
  if (dirs.length !== 1) return ['Wrote:', ...paths.map((p) => `  ${p}`)];
  const text = `Wrote to ${dirs[0]}${path.sep}: ${paths.map((p) => path.basename(p)).join(', ')}`;
  return layout.wide ? [text] : wrap(text, layout.width - 2).map((l, i) => (i === 0 ? l : `  ${l}`));
}

/**
 * Exit code of a finished run: 0 when a cell was measured, else the
 * reasons on stderr and 2 when every cell was skipped (a setting that
 * cannot run here: the user's to fix) or 1 when cells errored.
 */
export function reportNothingMeasured(empty: NothingMeasured | null): number {
  if (empty === null) return 0;
  const what = empty.allSkipped ? 'every cell was skipped' : 'no cell completed';
  process.stderr.write(`inferbench: error: nothing was measured: ${what}
${empty.reasons.map((r) => `  ${r}
`).join('')}  fix: ${empty.fix ?? 'change the settings named above'} (the files above record every cell and why)
`);
  return empty.allSkipped ? 2 : 1;
}

/**
 * What `run`, `generate` and `train` print after their report, and their exit
 * code: the warnings, the files written, the history entry (with `--out` when
 * it is not the default, so the printed command works as is), any lines of
 * the command's own (`after`), then the stop's code (128 + signo; 130 when
 * the record says interrupted without a signal here) or the nothing-measured code.
 */
export function finishRecordedRun(finished: {
  readonly warnings: readonly string[];
  readonly paths: readonly string[];
  readonly entryId: number | null;
  readonly out: string;
  readonly interrupted: boolean;
  /** 128 + the number of the signal that stopped the run, when one did. */
  readonly stopExitCode?: number | null;
  readonly empty: NothingMeasured | null;
  readonly after?: readonly string[];
}): number {
  for (const w of finished.warnings) process.stderr.write(`inferbench: warning: ${w}\n`);
  process.stdout.write(`\n${writtenLines(finished.paths).join('\n')}\n`);
  if (finished.entryId !== null) {
    const outFlag = finished.out === DEFAULT_OUT_DIR ? '' : ` --out ${JSON.stringify(finished.out)}`;
    process.stdout.write(`History: benchmark ${finished.entryId} (inferbench show ${finished.entryId}${outFlag})\n`);
  }
  for (const line of finished.after ?? []) process.stdout.write(`${line}\n`);
  if (finished.interrupted) {
    process.stderr.write(`inferbench: interrupted; the files above hold every cell measured before ${stopCause()}\n`);
    return finished.stopExitCode ?? EXIT_INTERRUPTED;
  }
  return reportNothingMeasured(finished.empty);
}

/**
 * The CLI side every recorded command shares (`run`, `generate`, `train` and
 * their `rerun`): a stop signal (Ctrl-C, SIGTERM, SIGHUP) lets the current unit of work finish, progress
 * goes to stderr's progress area (terminal-width.ts), the report to stdout, then `finishRecordedRun`'s lines
 * and exit code. Each command brings only what is its own.
 */
export async function reportRecordedCommand<R extends { readonly state: string }, P>(command: {
  /** What a stop signal lets finish first ("batch", "training step"). */
  readonly unit: string;
  readonly out: string;
  readonly rerunOf?: number;
  /** The engines the command runs on (the CLI's registry), handed to `execute` in its hooks. */
  readonly registry: EngineRegistry;
  readonly execute: (
    /** `progress`: the progress area itself, for a line of the command's own (the run's header) at its width. */
    hooks: { readonly signal: AbortSignal; readonly registry: EngineRegistry; readonly onProgress: (event: P) => void; readonly progress: Pick<ProgressArea, 'line' | 'width'> },
    record: RecordOptions,
  ) => Promise<RecordedOutcome<R>>;
  /** A line that stays, a `status` that the next overwrites on a terminal (per round), or nothing. */
  readonly progressLine: (event: P) => string | { readonly status: string } | null;
  /** `--quiet`: no progress at all; warnings and errors still go to stderr. */
  readonly quiet?: boolean;
  /** `--wide`: progress lines are kept whole, as the report's are; otherwise they fit stderr's width (terminal-width.ts). */
  readonly wide?: boolean;
  /** The report; `entryId` is the history entry the run was recorded as (null when none), for the report's `inferbench show` hints. */
  readonly render: (record: R, color: boolean, entryId: number | null) => string;
  /** Lines printed after the history line (charts not drawn). */
  readonly after?: (record: R) => readonly string[];
  /** A fix of the command's own for a run that measured nothing, or null for the general one. */
  readonly nothingMeasuredFix?: (record: R) => Promise<string | null>;
}): Promise<number> {
  const stop = stopOnSignals(command.unit);
  const area = new ProgressArea(command.quiet === true, process.stderr, { wide: command.wide === true });
  let recorded: RecordedOutcome<R>;
  try {
    recorded = await command.execute(
      {
        signal: stop.signal,
        registry: command.registry,
        progress: area,
        onProgress: (event) => {
          const line = command.progressLine(event);
          if (typeof line === 'string') area.line(line);
          else if (line) area.status(line.status);
        },
      },
      { source: 'cli', rerunOf: command.rerunOf ?? null, onWarning: (m) => area.message(`inferbench: warning: ${m}`) },
    );
  } finally {
    area.clear();
    stop.release();
  }
  const { outcome, entryId } = recorded;
  const fix = recorded.nothingMeasured ? await command.nothingMeasuredFix?.(outcome.record) : null;
  const nothingMeasured = recorded.nothingMeasured && fix ? { ...recorded.nothingMeasured, fix } : recorded.nothingMeasured;
  const color = process.stdout.isTTY === true && !process.env['NO_COLOR'];
  const report = command.render(outcome.record, color, entryId);
  // One blank line between the report and the files written (finishRecordedRun's), not two: the one-screen report counts its lines.
  process.stdout.write(report.endsWith('\n') ? report : `${report}\n`);
  return finishRecordedRun({
    warnings: outcome.warnings,
    paths: outcome.paths,
    entryId,
    out: command.out,
    interrupted: outcome.record.state === 'interrupted',
    stopExitCode: stop.exitCode(),
    empty: nothingMeasured,
    after: command.after?.(outcome.record) ?? [],
  });
}

/**
 * The line a recorded command prints to stderr as it starts: what runs, on
 * which engines. When the engine list would make it wider than the progress
 * area, the line names as many engines as fit and says the report lists
 * every one (the area wraps what is still too wide); `--wide` (width null)
 * keeps it whole.
 */
export function startLine(head: string, engines: readonly string[], tail: string, width: number | null): string {
  const full = `${head} on ${engines.join(', ')}${tail}`;
  const fits = (line: string): boolean => [...line].length <= (width ?? Infinity);
  if (fits(full) || engines.length <= 1) return full;
  const some = (n: number): string => `${head} on ${engines.length} engines (${engines.slice(0, n).join(', ')}, …: the report lists all ${engines.length})${tail}`;
  let n = 0;
  while (n + 1 < engines.length && fits(some(n + 1))) n++;
  return n > 0 ? some(n) : `${head} on ${engines.length} engines (the report lists them)${tail}`;
}
