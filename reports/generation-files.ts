/**
 * Files of `inferbench generate`: results.json (the whole record with raw
 * per-token times), results.csv and results.parquet (one row per cell, full
 * precision in ms, bytes and tokens/s), and ttft.png / tpot.png. Every file
 * is written atomically by the same helper as the classification run's.
 */
import * as nodeFs from 'node:fs/promises';
import * as path from 'node:path';
import type { TopLevelSpec } from 'vega-lite';
import type { CompletedGenerationCell, GenerationCell, GenerationRunRecord } from '../src/core/generation-results.js';
import { hasErrorCode, UserError } from '../src/core/errors.js';
import { CHART_FONT } from './chart-spec.js';
import { csvField } from './csv-report.js';
import { orderedGenerationCells } from './generation-report.js';
import { cpuFallbackField, placementNodesField } from './placement-text.js';
import { renderPng } from './png-chart.js';
import { formatVersions } from './run-summary.js';
import { formatDuration, formatTimestamp } from '../src/core/units.js';
import { writeAtomically, type WriteFs } from './write-run.js';

/** File names inside the run folder. */
export const GENERATION_FILES = {
  json: 'results.json',
  csv: 'results.csv',
  parquet: 'results.parquet',
  ttftPng: 'ttft.png',
  tpotPng: 'tpot.png',
} as const;

type Kind = 'string' | 'int' | 'double';

interface GenerationColumn {
  readonly name: string;
  readonly kind: Kind;
  readonly value: (cell: GenerationCell, run: GenerationRunRecord) => string | number | null | undefined;
}

const sessionOf = (c: GenerationCell) => (c.state === 'skipped' ? undefined : c.session);

function measured(name: string, kind: Kind, f: (c: CompletedGenerationCell) => number | null): GenerationColumn {
  return { name, kind, value: (c) => (c.state === 'completed' ? f(c) : null) };
}

/** Columns of the CSV and Parquet files, in order. */
const COLUMNS: readonly GenerationColumn[] = [
  { name: 'run_id', kind: 'string', value: (_c, run) => run.id },
  { name: 'model', kind: 'string', value: (c) => c.model },
  { name: 'engine', kind: 'string', value: (c) => c.engine },
  { name: 'backend', kind: 'string', value: (c) => sessionOf(c)?.backend },
  { name: 'threads', kind: 'int', value: (c) => sessionOf(c)?.threads },
  { name: 'requested_threads', kind: 'int', value: (c) => c.requestedThreads },
  { name: 'precision', kind: 'string', value: (c) => sessionOf(c)?.precision },
  { name: 'versions', kind: 'string', value: (c) => formatVersions(sessionOf(c)?.versions ?? {}, ';') },
  { name: 'ep_nodes', kind: 'string', value: (c) => placementNodesField(sessionOf(c)?.placement) },
  { name: 'ep_cpu_fallback_ops', kind: 'string', value: (c) => cpuFallbackField(sessionOf(c)?.placement) },
  { name: 'batch_size', kind: 'int', value: (c) => c.batchSize },
  { name: 'prompt_length', kind: 'int', value: (c) => c.promptLength },
  { name: 'new_tokens', kind: 'int', value: (c) => c.newTokens },
  { name: 'state', kind: 'string', value: (c) => c.state },
  { name: 'reason', kind: 'string', value: (c) => (c.state === 'completed' ? null : c.reason) },
  measured('runs', 'int', (c) => c.samples.length),
  measured('warmup_runs', 'int', (c) => c.warmupRuns),
  measured('ttft_mean_ms', 'double', (c) => c.ttft.mean),
  measured('ttft_p50_ms', 'double', (c) => c.ttft.p50),
  measured('ttft_p90_ms', 'double', (c) => c.ttft.p90),
  measured('ttft_p99_ms', 'double', (c) => c.ttft.p99),
  measured('tpot_mean_ms', 'double', (c) => c.tpot?.mean ?? null),
  measured('tpot_p50_ms', 'double', (c) => c.tpot?.p50 ?? null),
  measured('tpot_p90_ms', 'double', (c) => c.tpot?.p90 ?? null),
  measured('tpot_p99_ms', 'double', (c) => c.tpot?.p99 ?? null),
  measured('decode_tokens_per_s', 'double', (c) => c.decodeTokensPerSecond),
  measured('prefill_tokens_per_s', 'double', (c) => c.prefillTokensPerSecond),
  measured('peak_rss_bytes', 'double', (c) => c.peakRssBytes),
  measured('peak_gpu_bytes', 'double', (c) => c.peakGpuBytes),
  measured('early_stops', 'int', (c) => c.earlyStops),
  measured('load_ms', 'double', (c) => c.loadMs),
];

/** Header names of the CSV and Parquet files. */
export const GENERATION_COLUMNS: readonly string[] = COLUMNS.map((c) => c.name);

/** RFC 4180 CSV, one row per cell, in report order. */
export function renderGenerationCsv(run: GenerationRunRecord): string {
  const lines = [COLUMNS.map((c) => csvField(c.name)).join(',')];
  for (const cell of orderedGenerationCells(run)) lines.push(COLUMNS.map((c) => csvField(c.value(cell, run))).join(','));
  return `${lines.join('\r\n')}\r\n`;
}

/** The same table as Parquet (typed, nullable columns), for pandas, DuckDB and Arrow. */
export async function renderGenerationParquet(run: GenerationRunRecord): Promise<Uint8Array> {
  const { parquetWriteBuffer } = await import('hyparquet-writer');
  const cells = orderedGenerationCells(run);
  const columnData = COLUMNS.map((col) => {
    const values = cells.map((cell) => {
      const v = col.value(cell, run);
      if (v === undefined || v === null || (typeof v === 'number' && !Number.isFinite(v))) return null;
      return col.kind === 'string' ? String(v) : Number(v);
    });
    return { name: col.name, data: values, type: col.kind === 'string' ? ('STRING' as const) : col.kind === 'int' ? ('INT32' as const) : ('DOUBLE' as const) };
  });
  return new Uint8Array(parquetWriteBuffer({ columnData }));
}

/**
 * Bars of one latency statistic per engine, grouped by configuration
 * (batch × prompt × new tokens), with p90 as a tick. Only completed cells
 * are drawn; the subtitle names the others so a missing bar is never read as 0.
 */
export function generationChartSpec(run: GenerationRunRecord, metric: 'ttft' | 'tpot'): TopLevelSpec {
  const cells = orderedGenerationCells(run);
  const completed = cells.filter((c): c is CompletedGenerationCell => c.state === 'completed' && (metric === 'ttft' || c.tpot !== null));
  const engines = [...new Set(cells.map((c) => c.engine))];
  const configOf = (c: GenerationCell) => `batch ${c.batchSize} · prompt ${c.promptLength} · new ${c.newTokens}`;
  const configs = [...new Set(completed.map(configOf))];
  const values = completed.map((c) => {
    const s = metric === 'ttft' ? c.ttft : c.tpot;
    return { engine: c.engine, config: configOf(c), mean: s?.mean ?? 0, p90: s?.p90 ?? 0, label: formatDuration(s?.mean ?? 0) };
  });
  const missing = cells.filter((c) => c.state !== 'completed').map((c) => `${c.engine} (${configOf(c)}): ${c.state}`);
  const title = metric === 'ttft' ? 'Time to first token (prefill + first sample)' : 'Time per output token after the first';
  const env = run.environment;
  return {
    $schema: 'https://vega.github.io/schema/vega-lite/v6.json',
    title: {
      text: `${run.models[0]?.name ?? ''} – ${title}, lower is better`,
      subtitle: [
        `bar = mean, tick = p90 · ${env.cpuModel}, ${env.cores} cores · node ${env.node} · ${formatTimestamp(env.date)}`,
        ...(completed.length === 0 ? ['no cell completed, so there is nothing to draw'] : []),
        ...missing.slice(0, 6).map((m) => `not shown: ${m}`),
      ],
      anchor: 'start',
      fontSize: 15,
      subtitleFontSize: 11,
      subtitleColor: '#555555',
      offset: 14,
    },
    data: { values },
    width: Math.max(480, configs.length * (engines.length + 1) * 22),
    height: 300,
    encoding: {
      x: { field: 'config', type: 'nominal', title: null, sort: configs, axis: { labelAngle: 0 } },
      xOffset: { field: 'engine', type: 'nominal', sort: engines },
      color: { field: 'engine', type: 'nominal', sort: engines, scale: { scheme: 'tableau10' }, legend: { title: 'engine', orient: 'right' } },
    },
    layer: [
      { mark: { type: 'bar', cornerRadiusEnd: 2 }, encoding: { y: { field: 'mean', type: 'quantitative', title: `${metric.toUpperCase()} (ms)`, axis: { format: ',~r' } } } },
      { mark: { type: 'tick', thickness: 2 }, encoding: { y: { field: 'p90', type: 'quantitative' }, color: { value: '#333333' } } },
    ],
    background: 'white',
    padding: 16,
    config: { font: CHART_FONT, view: { stroke: null }, axis: { labelFontSize: 11, titleFontSize: 12 } },
  } as TopLevelSpec;
}

/**
 * Writes the run's files, data first and charts last, each atomically.
 * Returns the paths written; a chart that fails to render is reported in
 * `warnings` and never costs the data files.
 */
export async function writeGenerationFiles(
  run: GenerationRunRecord,
  dir: string,
  options: { png: boolean; fs?: WriteFs },
): Promise<{ paths: string[]; warnings: string[] }> {
  const fs: WriteFs = options.fs ?? nodeFs;
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
  await write(GENERATION_FILES.json, `${JSON.stringify(run, null, 2)}\n`);
  await write(GENERATION_FILES.csv, renderGenerationCsv(run));
  await write(GENERATION_FILES.parquet, await renderGenerationParquet(run));
  if (options.png) {
    for (const [name, metric] of [[GENERATION_FILES.ttftPng, 'ttft'], [GENERATION_FILES.tpotPng, 'tpot']] as const) {
      let png: Uint8Array;
      try {
        png = await renderPng(generationChartSpec(run, metric));
      } catch (err) {
        warnings.push(`${name} not written: ${(err as Error).message}`);
        continue;
      }
      await write(name, png);
    }
  }
  return { paths, warnings };
}
