/**
 * What the file writers of the per-cell scenarios (`generate`, `train`)
 * share: a typed column list rendered as CSV and Parquet, a bar chart of one
 * statistic per engine and configuration, and the atomic write of a run's
 * data files then charts. Each scenario keeps only its columns and what its
 * chart shows, so the formats stay identical across scenarios.
 */
import * as nodeFs from 'node:fs/promises';
import * as path from 'node:path';
import type { TopLevelSpec } from 'vega-lite';
import { hasErrorCode, UserError } from '../src/core/errors.js';
import type { EnvironmentInfo } from '../src/core/results.js';
import type { SessionDescription } from '../src/core/engine-session.js';
import { formatTimestamp } from '../src/core/units.js';
import { CHART_FONT } from './chart-spec.js';
import { csvField } from './csv-report.js';
import { renderPng } from './png-chart.js';
import { formatVersions } from './run-summary.js';
import { writeAtomically, type RunChart, type WriteFs } from './write-run.js';
import { colorScale } from './engine-palette.js';
import { footnote } from './chart-width.js';

/** Parquet type of a column; CSV writes every kind as text. */
export type ColumnKind = 'string' | 'int' | 'double';

/** One column of a scenario's CSV and Parquet files. */
export interface CellColumn<C, R> {
  readonly name: string;
  readonly kind: ColumnKind;
  readonly value: (cell: C, run: R) => string | number | null | undefined;
}

/** What the identity columns read from a cell: its key and the session the engine reported (none for a skipped cell). */
export interface SessionCell {
  readonly state: string;
  readonly model: string;
  readonly engine: string;
  readonly requestedThreads: number | null;
  readonly session?: SessionDescription;
}

/**
 * The columns every per-cell CSV and Parquet file of generate and train
 * starts with, in this order: the run, the model, the engine and what the
 * engine read back (backend, threads, precision, versions). One list, so the
 * scenarios' files name a cell alike.
 */
export function sessionColumns<C extends SessionCell, R extends { readonly id: string }>(): CellColumn<C, R>[] {
  const sessionOf = (c: C) => (c.state === 'skipped' ? undefined : c.session);
  return [
    { name: 'run_id', kind: 'string', value: (_c, run) => run.id },
    { name: 'model', kind: 'string', value: (c) => c.model },
    { name: 'engine', kind: 'string', value: (c) => c.engine },
    { name: 'backend', kind: 'string', value: (c) => sessionOf(c)?.backend },
    { name: 'threads', kind: 'int', value: (c) => sessionOf(c)?.threads },
    { name: 'requested_threads', kind: 'int', value: (c) => c.requestedThreads },
    { name: 'precision', kind: 'string', value: (c) => sessionOf(c)?.precision },
    { name: 'versions', kind: 'string', value: (c) => formatVersions(sessionOf(c)?.versions ?? {}, ';') },
  ];
}

/** RFC 4180 CSV, one row per cell, in the order given. */
export function renderCellsCsv<C, R>(columns: readonly CellColumn<C, R>[], cells: readonly C[], run: R): string {
  const lines = [columns.map((c) => csvField(c.name)).join(',')];
  for (const cell of cells) lines.push(columns.map((c) => csvField(c.value(cell, run))).join(','));
  return `${lines.join('\r\n')}\r\n`;
}

/** The same table as Parquet (typed, nullable columns), for pandas, DuckDB and Arrow. */
export async function renderCellsParquet<C, R>(columns: readonly CellColumn<C, R>[], cells: readonly C[], run: R): Promise<Uint8Array> {
  const { parquetWriteBuffer } = await (await import('./parquet-report.js')).parquetWriter();
  const columnData = columns.map((col) => {
    const values = cells.map((cell) => {
      const v = col.value(cell, run);
      if (v === undefined || v === null || (typeof v === 'number' && !Number.isFinite(v))) return null;
      return col.kind === 'string' ? String(v) : Number(v);
    });
    return { name: col.name, data: values, type: col.kind === 'string' ? ('STRING' as const) : col.kind === 'int' ? ('INT32' as const) : ('DOUBLE' as const) };
  });
  return new Uint8Array(parquetWriteBuffer({ columnData }));
}

/** One bar: an engine's mean (and p90 tick) for one configuration. */
export interface EngineBar {
  /** The cell's rounds disagree (or it missed its minimums): its label says NOISY, in orange. */
  readonly noisy?: boolean;
  readonly engine: string;
  readonly config: string;
  readonly mean: number;
  readonly p90: number;
  readonly label: string;
  /** The 95% interval of the mean across rounds, drawn as an error bar; absent with one round. */
  readonly low?: number;
  readonly high?: number;
}

/**
 * Bars of one statistic per engine, grouped by configuration, with p90 as a
 * tick and, where bars carry one, the 95% interval across rounds as an error
 * bar. `missing` names the cells not drawn, so a missing bar is never read as 0.
 */
export function engineBarChartSpec(chart: {
  readonly title: string;
  readonly yTitle: string;
  readonly environment: EnvironmentInfo;
  readonly engines: readonly string[];
  readonly bars: readonly EngineBar[];
  readonly missing: readonly string[];
}): TopLevelSpec {
  const { engines, bars, environment: env } = chart;
  const configs = [...new Set(bars.map((b) => b.config))];
  return {
    $schema: 'https://vega.github.io/schema/vega-lite/v6.json',
    title: {
      text: chart.title,
      subtitle: [
        `bar = mean, tick = p90${bars.some((b) => b.low !== undefined) ? ', whisker = 95% CI of the mean across rounds' : ''} · ${env.cpuModel}, ${env.cores} cores · node ${env.node} · ${formatTimestamp(env.date)}`,
        ...(bars.length === 0 ? ['no cell completed, so there is nothing to draw'] : []),
        ...(chart.missing.length > 0 ? footnote(`not shown: ${chart.missing.join('; ')}`, 'the report says why') : []),
        // The NOISY cells as a footnote of at most two lines: a long list once set the picture's width.
        ...(bars.some((b) => b.noisy) ? footnote(`label: the mean; NOISY (orange): rounds disagree or the cell missed its minimums: ${bars.filter((b) => b.noisy).map((b) => `${b.engine} ${b.config}`).join(', ')}`, 'the report lists them all') : []),
      ],
      anchor: 'start',
      fontSize: 15,
      subtitleFontSize: 11,
      subtitleColor: '#555555',
      offset: 14,
    },
    // Each bar's mean is printed above it (and above its tick and error bar): a bar of 0.87 ms beside 40 ms ones is still read.
    data: { values: bars.map((b) => ({ ...b, labelAt: Math.max(b.mean, b.p90, b.high ?? 0), valueText: `${b.label}${b.noisy ? ' NOISY' : ''}` })) },
    width: Math.max(480, configs.length * (engines.length + 1) * 22),
    height: 300,
    encoding: {
      x: { field: 'config', type: 'nominal', title: null, sort: configs, axis: { labelAngle: 0 } },
      xOffset: { field: 'engine', type: 'nominal', sort: [...engines] },
      color: { field: 'engine', type: 'nominal', sort: [...engines], scale: colorScale([...engines]), legend: { title: 'engine', orient: 'right' } },
    },
    layer: [
      { mark: { type: 'text', angle: 270, align: 'left', baseline: 'middle', dx: 4, fontSize: 10 }, encoding: { y: { field: 'labelAt', type: 'quantitative', title: chart.yTitle }, text: { field: 'valueText' }, color: { condition: { test: 'datum.noisy', value: '#b35c00' }, value: '#333333' } } },
      { mark: { type: 'bar', cornerRadiusEnd: 2 }, encoding: { y: { field: 'mean', type: 'quantitative', title: chart.yTitle, axis: { format: ',~r' } } } },
      { mark: { type: 'tick', thickness: 2 }, encoding: { y: { field: 'p90', type: 'quantitative' }, color: { value: '#333333' } } },
      ...(bars.some((b) => b.low !== undefined && b.high !== undefined)
        ? [{
          transform: [{ filter: 'isValid(datum.low) && isValid(datum.high)' }],
          mark: { type: 'errorbar', ticks: true, thickness: 1.5 },
          encoding: { y: { field: 'low', type: 'quantitative', title: chart.yTitle }, y2: { field: 'high' }, color: { value: '#000000' } },
        }]
        : []),
    ],
    background: 'white',
    padding: 16,
    config: { font: CHART_FONT, view: { stroke: null }, axis: { labelFontSize: 11, titleFontSize: 12 } },
  } as TopLevelSpec;
}

/** The data files every per-cell scenario writes, under these names. */
export const CELL_DATA_FILES = { json: 'results.json', csv: 'results.csv', parquet: 'results.parquet' } as const;

/** Lines naming each chart that was not drawn and why (`Not drawn: step-time.png: no cell completed`), as `run` prints them. */
export function notDrawnLines(charts: readonly RunChart[]): string[] {
  return charts.flatMap((chart) => ('skipped' in chart ? [`Not drawn: ${chart.file}: ${chart.skipped}`] : []));
}

/**
 * Writes a run's files, each atomically: the record as results.json and its
 * cells (in the order given) as results.csv and results.parquet from one
 * column list, then the charts that have something to draw (a chart with a
 * `skipped` reason is not written). Returns the paths written; a chart that
 * fails to render is reported in `warnings` and never costs the data files.
 */
export async function writeCellFiles<C, R>(
  dir: string,
  files: {
    readonly run: R;
    readonly columns: readonly CellColumn<C, R>[];
    readonly cells: readonly C[];
    readonly charts: readonly RunChart[];
    /** More data files of the scenario's own (name, render), written after the three and before the charts. */
    readonly extra?: readonly (readonly [string, () => string | Uint8Array | Promise<Uint8Array>])[];
  },
  fs: WriteFs = nodeFs,
): Promise<{ paths: string[]; warnings: string[] }> {
  const { run, columns, cells } = files;
  const data: readonly (readonly [string, () => string | Uint8Array | Promise<Uint8Array>])[] = [
    [CELL_DATA_FILES.json, () => `${JSON.stringify(run, null, 2)}\n`],
    [CELL_DATA_FILES.csv, () => renderCellsCsv(columns, cells, run)],
    [CELL_DATA_FILES.parquet, () => renderCellsParquet(columns, cells, run)],
    ...(files.extra ?? []),
  ];
  try {
    await fs.mkdir(dir, { recursive: true });
  } catch (err) {
    if (hasErrorCode(err, 'ENOSPC')) throw new UserError(`disk is full: could not create ${dir}`, 'free some space or pass --out <dir on another disk>');
    throw new UserError(`could not create the output folder ${dir}: ${(err as Error).message}`, 'pass --out a writable folder');
  }
  const paths: string[] = [];
  const warnings: string[] = [];
  const write = async (name: string, data: string | Uint8Array) => {
    const target = path.join(dir, name);
    await writeAtomically(fs, target, data);
    paths.push(target);
  };
  for (const [name, render] of data) await write(name, await render());
  for (const chart of files.charts) {
    if ('skipped' in chart) continue;
    let png: Uint8Array;
    try {
      png = await renderPng(chart.spec);
    } catch (err) {
      warnings.push(`${chart.file} not written: ${(err as Error).message}`);
      continue;
    }
    await write(chart.file, png);
  }
  return { paths, warnings };
}
