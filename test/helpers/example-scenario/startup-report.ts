/**
 * The example scenario's terminal report, which `inferbench startup`
 * prints at the end and `inferbench show` prints again: one line per
 * engine with its mean and p95 start, over how many rounds, and whether
 * they were cold (timed in fresh processes); a skipped or failed engine
 * says why. Its `show` settings lines too.
 */
import { formatDuration } from '../../../src/core/units.js';
import type { ReportOptions } from '../../../src/scenarios/scenario-registry.js';
import type { StartupConfig } from './startup-run.js';
import type { StartupCell, StartupRecord } from './startup-results.js';

/** `show`'s settings lines, aligned as the built-ins'. */
export function startupSettingLines(c: StartupConfig): string[] {
  return [`  rounds:       ${c.rounds}, each in ${c.isolate ? 'a fresh child process' : 'this process'}`];
}

function cellLine(c: StartupCell): string {
  const engine = c.engine.padEnd(20);
  if (c.state !== 'completed') return `  ${engine} ${c.state}: ${c.reason}`;
  const where = c.cold ? 'cold, fresh processes' : 'warm, in the run’s process';
  return `  ${engine} mean ${formatDuration(c.meanMs)}, p95 ${formatDuration(c.p95Ms)} over ${c.samples.length} round${c.samples.length === 1 ? '' : 's'} (${where})`;
}

/** The report: a heading and a line per engine. */
export function renderStartupReport(record: StartupRecord, _options: ReportOptions): string {
  return [`Engine start (probe: runtime import and hardware check), run ${record.id}`, ...record.cells.map(cellLine), ''].join('\n');
}
