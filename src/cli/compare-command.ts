import * as path from 'node:path';
import { UserError } from '../core/errors.js';
import { renderRunComparison } from '../../reports/compare-report.js';
import { readRunRecord } from '../../reports/read-run.js';
import { recordKindOf } from '../core/record-kind.js';
import { compareRuns, DEFAULT_MIN_EFFECT, describeDifference } from '../../reports/run-comparison.js';
import { writeFileAtomically } from '../../reports/write-run.js';
import { pairGenerationCells, renderGenerationComparison } from '../../reports/generation-comparison.js';
import type { GenerationRunRecord } from '../core/generation-results.js';
import type { LoadRunRecord } from '../core/load-results.js';
import { compareServerRuns, renderServerComparison } from '../../reports/server-comparison.js';
import { numberFlag, stringFlag, type ParsedArgs } from './args.js';
import type { TopLevelSpec } from 'vega-lite';

/** run-job's DEFAULT_OUT_DIR; repeated so `compare` does not load the engine modules run-job imports. */
const DEFAULT_OUT = 'inferbench-out';

/**
 * `inferbench compare <runA> <runB>`: reads both runs, prints the per-cell
 * table with calls from the log-ratio t-test on round means (reports/run-comparison.ts)
 * and writes the comparison chart.
 * Bad paths and runs with nothing in common are user errors naming them.
 */
export async function compareCommand(args: ParsedArgs): Promise<number> {
  const [pathA, pathB, ...extra] = args.positionals;
  if (pathA === undefined || pathB === undefined || extra.length > 0) {
    throw new UserError(
      `compare needs exactly two runs, got ${args.positionals.length}`,
      'write inferbench compare <runA> <runB>, each a run folder (<out>/<run-id>/) or its results.json',
    );
  }
  // Each side may also be a history id (`inferbench list`) of the --out folder.
  const { resolveRunPath } = await import('../runs/history/entry-ref.js');
  const out = stringFlag(args, 'out') ?? DEFAULT_OUT;
  // Both sides are read at once, but every rejection is awaited: with Promise.all a failing side would leave the other's rejection unhandled (a crash dump after the message).
  const read = async (ref: string) => readRunRecord(await resolveRunPath(out, ref));
  const [sideA, sideB] = await Promise.allSettled([read(pathA), read(pathB)]);
  if (sideA.status === 'rejected') throw sideA.reason;
  if (sideB.status === 'rejected') throw sideB.reason;
  const [a, b] = [sideA.value, sideB.value];
  // readRunRecord gave each record today's kind word (older `generation`/`server` included); a train record compares as `run` does.
  const commandOf = (kind: string | undefined) => (kind === 'generate' || kind === 'load' ? kind : 'run');
  const kinds = [a, b].map((r) => commandOf(recordKindOf(r.record)));
  if (kinds[0] !== kinds[1]) {
    throw new UserError(`run ${a.record.id} is from inferbench ${kinds[0]} and run ${b.record.id} from inferbench ${kinds[1]}`, 'compare two runs of the same command');
  }
  if (kinds[0] === 'generate') return compareGeneration(a.record as unknown as GenerationRunRecord, b.record as unknown as GenerationRunRecord, { out, png: args.flags['no-png'] !== true });
  if (kinds[0] === 'load') return compareLoad(a.record as unknown as LoadRunRecord, b.record as unknown as LoadRunRecord);
  const comparison = compareRuns(a.record, b.record, { minEffect: minEffectFlag(args) });
  if (comparison.cells.length === 0) {
    const why = describeDifference(a.record, b.record);
    const parts = why.parts.length > 1 ? `${why.parts.slice(0, -1).join(', ')} and ${why.parts.at(-1)}` : (why.parts[0] ?? 'combination of settings');
    throw new UserError(
      `runs ${a.record.id} and ${b.record.id} have no cells in common: they differ in ${why.differ || 'how their settings combine'}${why.same ? ` (the same ${why.same})` : ''}`,
      `measure one run with the other's ${parts} (or a run covering both), then compare`,
    );
  }
  const color = process.stdout.isTTY === true && !process.env['NO_COLOR'];
  const width = process.stdout.columns;
  process.stdout.write(renderRunComparison(comparison, { files: [a.file, b.file], color, ...(width ? { width } : {}) }));
  if (args.flags['no-png'] === true) return 0;
  if (!comparison.cells.some((c) => c.a.state === 'completed' && c.b.state === 'completed')) {
    process.stdout.write('\nNot drawn: the comparison chart, because no cell completed in both runs.\n');
    return 0;
  }
  const { runComparisonChartSpec } = await import('../../reports/view-charts.js');
  await writeComparisonPng(out, a.record.id, b.record.id, runComparisonChartSpec(a.record, b.record, comparison));
  return 0;
}

/** Renders `spec` to `<out>/compare-<A>-vs-<B>.png`, atomically, and says where it went. */
async function writeComparisonPng(out: string, idA: string, idB: string, spec: TopLevelSpec): Promise<void> {
  const { renderPng } = await import('../../reports/png-chart.js');
  // Ids come from files the user passed; keep only characters safe in a file name.
  const safe = (id: string): string => id.replace(/[^\w.-]/gu, '_');
  const target = path.resolve(out, `compare-${safe(idA)}-vs-${safe(idB)}.png`);
  await writeFileAtomically(target, await renderPng(spec));
  process.stdout.write(`\nWrote:\n  ${target}\n`);
}

/** `--min-effect X`: a fraction below 1, so "5%" typed as 5 is caught rather than silently never calling anything. */
function minEffectFlag(args: ParsedArgs): number {
  const value = numberFlag(args, 'min-effect');
  if (value === undefined) return DEFAULT_MIN_EFFECT;
  if (value >= 1) {
    throw new UserError(`--min-effect is a fraction of the mean below 1, got ${value}`, `e.g. --min-effect 0.05 for 5%`);
  }
  return value;
}

/** Two generation runs: matching cells with their TTFT/TPOT ratios (see reports/generation-comparison.ts), and their chart. */
async function compareGeneration(a: GenerationRunRecord, b: GenerationRunRecord, opts: { readonly out: string; readonly png: boolean }): Promise<number> {
  const pairs = pairGenerationCells(a, b);
  if (pairs.length === 0) {
    throw new UserError(`generation runs ${a.id} and ${b.id} have no cells in common`, 'compare runs of the same engines, batch sizes, prompt lengths and new-token counts, run at the same thread counts (cells match on the threads each engine reported using)');
  }
  const color = process.stdout.isTTY === true && !process.env['NO_COLOR'];
  process.stdout.write(renderGenerationComparison(a, b, pairs, color));
  if (!opts.png) return 0;
  const chart = await import('../../reports/generation-comparison-chart.js');
  if (!chart.canDrawGenerationComparison(pairs)) {
    process.stdout.write('\nNot drawn: the comparison chart, because no cell completed in both runs.\n');
    return 0;
  }
  await writeComparisonPng(opts.out, a.id, b.id, chart.generationComparisonChartSpec(a, b, pairs));
  return 0;
}

/** Two load runs: peak-rate ratios and latency ratios at equal rates (see reports/server-comparison.ts). */
function compareLoad(a: LoadRunRecord, b: LoadRunRecord): number {
  const cmp = compareServerRuns(a, b);
  if (cmp.rates.length === 0 && !cmp.peaks.some((p) => p.a !== null && p.b !== null)) {
    throw new UserError(`load runs ${a.id} and ${b.id} have no engine with a peak or a rate in common`, 'compare runs of the same engines with a shared rate (--rates) or both with --find-peak');
  }
  const color = process.stdout.isTTY === true && !process.env['NO_COLOR'];
  process.stdout.write(renderServerComparison(a, b, cmp, color));
  return 0;
}
