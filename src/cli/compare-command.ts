import * as path from 'node:path';
import { reportWidth } from './terminal-width.js';
import { UNLIMITED_WIDTH } from '../../reports/report-layout.js';
import { UserError } from '../core/errors.js';
import { DEFAULT_OUT_DIR } from '../core/output-folder.js';
import { numberFlag, stringFlag, type ParsedArgs } from './args.js';
import type { TopLevelSpec } from 'vega-lite';


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
  // The readers and the scenarios load only once the arguments are checked.
  const [{ resolveRunPath }, { readRunRecord }, { scenarioOfRecord }, { DEFAULT_MIN_EFFECT }] = await Promise.all([
    import('../runs/history/entry-ref.js'),
    import('../../reports/read-run.js'),
    import('../scenarios/scenario-registry.js'),
    import('../../reports/run-comparison.js'),
    import('../runs/builtin-scenarios.js'),
  ]);
  const out = stringFlag(args, 'out') ?? DEFAULT_OUT_DIR;
  // Both sides are read at once, but every rejection is awaited: with Promise.all a failing side would leave the other's rejection unhandled (a crash dump after the message).
  const read = async (ref: string) => readRunRecord(await resolveRunPath(out, ref));
  const [sideA, sideB] = await Promise.allSettled([read(pathA), read(pathB)]);
  if (sideA.status === 'rejected') throw sideA.reason;
  if (sideB.status === 'rejected') throw sideB.reason;
  const [a, b] = [sideA.value, sideB.value];
  // Each record's scenario (older kind words included) compares it; two scenarios never compare.
  const [scenarioA, scenarioB] = [scenarioOfRecord(a.record), scenarioOfRecord(b.record)];
  if (scenarioA !== scenarioB) {
    throw new UserError(`run ${a.record.id} is from inferbench ${scenarioA.command} and run ${b.record.id} from inferbench ${scenarioB.command}`, 'compare two runs of the same command');
  }
  const terminal = scenarioA.compare?.terminal;
  if (terminal === undefined) throw new UserError(`inferbench ${scenarioA.command} runs have no comparison`, 'compare two `inferbench run` runs');
  const color = process.stdout.isTTY === true && !process.env['NO_COLOR'];
  // The table fits COLUMNS, else the terminal, else 80, as the run report does; --wide keeps every column whole.
  const layout = reportWidth(args);
  const width = layout.wide ? UNLIMITED_WIDTH : layout.width;
  const compared = terminal(a.record, b.record, { color, width, wide: layout.wide, details: args.flags['details'] === true, files: [a.file, b.file], minEffect: () => minEffectFlag(args, DEFAULT_MIN_EFFECT) });
  process.stdout.write(compared.text);
  if (args.flags['no-png'] === true || compared.chart === null) return 0;
  const chart = await compared.chart();
  if ('notDrawn' in chart) {
    process.stdout.write(`\nNot drawn: the comparison chart, because ${chart.notDrawn}.\n`);
    return 0;
  }
  await writeComparisonPng(out, a.record.id, b.record.id, chart.spec);
  return 0;
}

/** Renders `spec` to `<out>/compare-<A>-vs-<B>.png`, atomically, and says where it went. */
async function writeComparisonPng(out: string, idA: string, idB: string, spec: TopLevelSpec): Promise<void> {
  const [{ renderPng }, { writeFileAtomically }] = await Promise.all([import('../../reports/png-chart.js'), import('../../reports/write-run.js')]);
  // Ids come from files the user passed; keep only characters safe in a file name.
  const safe = (id: string): string => id.replace(/[^\w.-]/gu, '_');
  const target = path.resolve(out, `compare-${safe(idA)}-vs-${safe(idB)}.png`);
  await writeFileAtomically(target, await renderPng(spec));
  process.stdout.write(`\nWrote:\n  ${target}\n`);
}

/** `--min-effect X`: a fraction below 1, so "5%" typed as 5 is caught rather than silently never calling anything. */
function minEffectFlag(args: ParsedArgs, defaultMinEffect: number): number {
  const value = numberFlag(args, 'min-effect');
  if (value === undefined) return defaultMinEffect;
  if (value >= 1) {
    throw new UserError(`--min-effect is a fraction of the mean below 1, got ${value}`, `e.g. --min-effect 0.05 for 5%`);
  }
  return value;
}
