/**
 * Writes a run's files to the output folder. Each file is written to a
 * temporary name and renamed into place, so a full disk or a crash mid-write
 * leaves the previous good file intact instead of a truncated one.
 */
import * as nodeFs from 'node:fs/promises';
import * as path from 'node:path';
import { fileSystemError } from '../src/core/fs-errors.js';
import { replaceFile, type ReplaceFs } from '../src/core/temporaries.js';
import type { RunRecord } from '../src/core/results.js';
import type { TopLevelSpec } from 'vega-lite';
import { comparisonChartSpec } from './chart-spec.js';
import { hostChartSpec } from './host-views.js';
import { renderCsv } from './csv-report.js';
import { renderPng } from './png-chart.js';
import { resultsTable, samplesTable } from './result-tables.js';
import { latencyDistributionChartSpec } from './latency-chart.js';
import { batchScalingChartSpec, coreScalingChartSpec } from './view-charts.js';
import { batchScalingView, coreScalingView, latencyDistributionView } from './run-views.js';
import { quantizationChartGap, quantizationChartSpec } from './quantization-chart.js';
import { hasVariants } from './variant-summary.js';

/** The part of `node:fs/promises` writing needs; tests pass a fake to inject ENOSPC and friends. */
export interface WriteFs extends ReplaceFs {
  mkdir(dir: string, options: { recursive: true }): Promise<unknown>;
}

/** Options of writeRunFiles; `fs` exists so tests can simulate a full or read-only disk. */
export interface WriteRunOptions {
  /** Also render the charts (comparison.png and the view charts); off for `--no-png` and where rendering is unwanted. */
  readonly png: boolean;
  readonly fs?: WriteFs;
  /** Told about each chart left out because its view has fewer than 2 points, with why. */
  readonly onChartSkipped?: (file: string, reason: string) => void;
}

/** File names inside the output folder, exported so the CLI can mention them. */
export const RUN_FILES = {
  json: 'results.json',
  csv: 'results.csv',
  png: 'comparison.png',
  resultsParquet: 'results.parquet',
  resultsArrow: 'results.arrow',
  samplesParquet: 'samples.parquet',
  samplesArrow: 'samples.arrow',
  coreScaling: 'core-scaling.png',
  batchScaling: 'batch-scaling.png',
  latencyDistribution: 'latency-distribution.png',
  quantization: 'quantization.png',
  hosts: 'hosts.png',
} as const;

/** A chart of a run folder: its spec, or why it is left out rather than drawn empty. */
export type RunChart = { readonly file: string; readonly spec: TopLevelSpec } | { readonly file: string; readonly skipped: string };

/**
 * The charts a run folder gets, in writing order, each with its default
 * fixed value. A view with fewer than 2 points gets the reason instead of a
 * spec, so no empty chart is ever written.
 */
export function runCharts(run: RunRecord): RunChart[] {
  const view = (file: string, insufficient: string | null, spec: () => TopLevelSpec): RunChart =>
    insufficient === null ? { file, spec: spec() } : { file, skipped: insufficient };
  return [
    { file: RUN_FILES.png, spec: comparisonChartSpec(run) },
    view(RUN_FILES.coreScaling, coreScalingView(run).insufficient, () => coreScalingChartSpec(run)),
    view(RUN_FILES.batchScaling, batchScalingView(run).insufficient, () => batchScalingChartSpec(run)),
    view(RUN_FILES.latencyDistribution, latencyDistributionView(run).insufficient, () => latencyDistributionChartSpec(run)),
    // Only runs with precision variants get the quantization chart (or the reason it is not drawn).
    ...(hasVariants(run) ? [view(RUN_FILES.quantization, quantizationChartGap(run), () => quantizationChartSpec(run))] : []),
    // Only distributed runs (cells with a host) get the per-host chart; a local run's list is unchanged.
    ...hostChart(run),
  ];
}

function hostChart(run: RunRecord): RunChart[] {
  const spec = hostChartSpec(run);
  return spec ? [{ file: RUN_FILES.hosts, spec }] : [];
}

/** The file-system errors a user can fix as UserErrors naming the path and --out (fs-errors.ts, the one mapping); the rest unchanged. */
function toUserError(err: unknown, target: string): unknown {
  return fileSystemError(err, 'write', target, '--out');
}

/**
 * Writes `data` to `target` with core's `replaceFile` (a tracked temporary
 * beside it, renamed into place; a killed writer's temporaries swept
 * first), a failure worded as every run file's is (the disk, the folder,
 * `--out`). Exported for every writer of result files.
 */
export async function writeAtomically(fs: WriteFs, target: string, data: string | Uint8Array): Promise<void> {
  try {
    await replaceFile(target, data, fs);
  } catch (err) {
    throw toUserError(err, target);
  }
}

/**
 * Writes one file atomically (creating its folder), with the same messages
 * for a full disk or a read-only folder as a run's files. For files written
 * outside a run folder, such as `inferbench compare`'s chart.
 */
export async function writeFileAtomically(target: string, data: string | Uint8Array, fs: WriteFs = nodeFs): Promise<void> {
  try {
    await fs.mkdir(path.dirname(target), { recursive: true });
  } catch (err) {
    throw toUserError(err, path.dirname(target));
  }
  await writeAtomically(fs, target, data);
}

/**
 * Writes results.json (the whole RunRecord with raw samples, so any report
 * can be rebuilt later), results.csv, the same rows as results.parquet and
 * results.arrow, the raw per-batch samples as samples.parquet and
 * samples.arrow, and, when asked, the charts (comparison.png,
 * core-scaling.png, batch-scaling.png, latency-distribution.png), in that
 * order: the irreplaceable data first, the derived pictures last. Returns
 * the paths written. A chart that fails to render does not stop the data
 * files.
 */
export async function writeRunFiles(run: RunRecord, dir: string, opts: WriteRunOptions): Promise<string[]> {
  const fs: WriteFs = opts.fs ?? nodeFs;
  try {
    await fs.mkdir(dir, { recursive: true });
  } catch (err) {
    throw toUserError(err, dir);
  }
  const written: string[] = [];
  const write = async (name: string, data: string | Uint8Array): Promise<void> => {
    const target = path.join(dir, name);
    await writeAtomically(fs, target, data);
    written.push(target);
  };
  await write(RUN_FILES.json, `${JSON.stringify(run, null, 2)}\n`);
  await write(RUN_FILES.csv, renderCsv(run));
  const results = resultsTable(run);
  const samples = samplesTable(run);
  // Loaded here, not at the top: apache-arrow and hyparquet-writer cost every CLI start about 0.3 s of CPU, and only a run that writes files needs them.
  const [{ renderParquet }, { renderArrow }] = await Promise.all([import('./parquet-report.js'), import('./arrow-report.js')]);
  await write(RUN_FILES.resultsParquet, await renderParquet(results));
  await write(RUN_FILES.resultsArrow, renderArrow(results));
  await write(RUN_FILES.samplesParquet, await renderParquet(samples));
  await write(RUN_FILES.samplesArrow, renderArrow(samples));
  const profileFiles = await import('./profile-files.js');
  await profileFiles.writeProfileFiles(run, write);
  if (!opts.png) return written;
  for (const chart of runCharts(run)) {
    if ('spec' in chart) await write(chart.file, await renderPng(chart.spec));
    else opts.onChartSkipped?.(chart.file, chart.skipped);
  }
  await profileFiles.writeProfileChart(run, write);
  return written;
}
