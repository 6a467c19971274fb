/**
 * The dashboard's WHERE THE TIME GOES tab of a `run --profile` benchmark:
 * the terminal's tables (src/scenarios/classify/terminal-profile-section.ts) as
 * data, from the same groups of reports/profile-views.ts (op classes ×
 * engines, ms per batch and share, the outside-kernels row, the profiled
 * engine time beside the timed mean), each engine's source and
 * unattributed reason, and time-breakdown.png's vega-lite spec. The page
 * only lays these out: it derives no figure of its own.
 */
import type { RunRecord } from '../../core/results.js';
import { largestLines } from './terminal-profile-section.js';
import { profileTimeNote } from '../../../reports/profile-note.js';
import { timeBreakdownSpec } from '../../../reports/profile-files.js';
import { OUTSIDE_CLASS, profiledCells, profileGroups, timedMsPerBatch, unclassifiedOps } from '../../../reports/profile-views.js';

/** The tab's data, or null for a run without profiles (the page then says to run with --profile). */
export function profileView(run: RunRecord) {
  const cells = profiledCells(run);
  if (cells.length === 0) return null;
  return {
    tables: profileGroups(run).map((g) => ({
      title: `WHERE THE TIME GOES · ${g.key} · ms per batch and share`,
      engines: g.cells.map((p) => ({
        engine: p.engine,
        source: p.cell.profile.source,
        profiledMsPerBatch: p.cell.profile.engineMsPerBatch,
        timedMsPerBatch: timedMsPerBatch(p),
        unattributed: p.cell.profile.unattributed ?? null,
      })),
      rows: g.classes.map((c) => ({ opClass: c, outside: c === OUTSIDE_CLASS, cells: g.byClass.map((m) => m.get(c) ?? null) })),
    })),
    largest: largestLines(cells),
    unclassified: unclassifiedOps(run),
    notes: cells.flatMap((p) => (p.cell.profile.notes ?? []).map((n) => `${p.engine} b${p.cell.batchSize}: ${n}`)),
    note: profileTimeNote,
    spec: timeBreakdownSpec(run),
  };
}
