/**
 * The files of `run --profile`, beside the run's own: profile.csv (one row
 * per model, engine, variant, batch size and op type, with the
 * outside-kernels row), profile.parquet (one row per node and call of the
 * profiled pass) and time-breakdown.png (stacked bars per engine at each
 * batch size, in the engines' colours of every other chart). Written, like
 * every run file, under a temporary name and renamed into place.
 */
import type { TopLevelSpec } from 'vega-lite';
import type { RunRecord } from '../src/core/results.js';
import { OP_CLASSES, opClassOf } from '../src/core/op-taxonomy.js';
import { formatTimestamp } from '../src/core/units.js';
import { CHART_FONT } from './chart-spec.js';
import { csvField } from './csv-report.js';
import { classRowsOf, OUTSIDE_CLASS, profiledCells, profileRows, type ProfiledCell } from './profile-views.js';
import type { ResultTable, TableColumn } from './result-tables.js';
import { colorScale } from './engine-palette.js';
import { type Box, intersects } from './chart-labels.js';
import { measureDejaVu } from './chart-text-metrics.js';

export const PROFILE_FILES = { csv: 'profile.csv', parquet: 'profile.parquet', png: 'time-breakdown.png' } as const;

/** profile.csv's columns; `variant` only when a cell has one. */
export function profileCsvColumns(run: RunRecord): string[] {
  const variant = profiledCells(run).some((p) => p.variant !== null);
  return ['model', 'engine', ...(variant ? ['variant'] : []), 'batch_size', 'op_type', 'op_class', 'calls_per_batch', 'ms_per_batch', 'share', 'source'];
}

/** profile.csv: RFC 4180, one row per op type per (engine, batch size), the outside-kernels row after each cell's. */
export function renderProfileCsv(run: RunRecord): string {
  const columns = profileCsvColumns(run);
  const variant = columns.includes('variant');
  const lines = [columns.join(',')];
  for (const r of profileRows(run)) {
    const fields = [r.model, r.engine, ...(variant ? [r.variant] : []), r.batchSize, r.opType, r.opClass, r.callsPerBatch, r.msPerBatch, r.share, r.source];
    lines.push(fields.map((f) => csvField(f ?? null)).join(','));
  }
  return `${lines.join('\n')}\n`;
}

/** profile.parquet's table: every kept event of every profiled pass, one row per node and call. */
export function profileCallsTable(run: RunRecord): ResultTable {
  const cols: Record<string, (string | number | null)[]> = { model: [], engine: [], variant: [], batch_size: [], batch: [], node: [], op_type: [], op_class: [], ms: [], source: [] };
  for (const p of profiledCells(run)) {
    const profile = p.cell.profile;
    for (const [batch, index, us] of profile.calls) {
      const [node, opType] = profile.nodes[index] ?? ['?', '?'];
      const row: Record<string, string | number | null> = {
        model: p.cell.model, engine: p.engine, variant: p.variant, batch_size: p.cell.batchSize, batch, node, op_type: opType,
        op_class: opClassOf(opType).opClass, ms: us / 1000, source: profile.source,
      };
      for (const [k, v] of Object.entries(row)) cols[k]?.push(v);
    }
  }
  const kinds: Record<string, TableColumn['kind']> = { batch_size: 'int', batch: 'int', ms: 'float' };
  const columns = Object.entries(cols).map(([name, values]) => ({ name, kind: kinds[name] ?? 'string', values }));
  return { columns, rowCount: columns[0]?.values.length ?? 0 };
}

/** Engine labels in the order the comparison chart colours them: Node engines first, then browser ones. */
function engineOrder(cells: readonly ProfiledCell[]): string[] {
  const browser = (p: ProfiledCell) => Number(p.cell.session.browser !== undefined);
  return [...new Set([...cells].sort((a, b) => browser(a) - browser(b)).map((p) => p.engine))];
}

/** The plot's height, the group bands' padding and the class labels' size in time-breakdown.png. */
const BREAKDOWN_HEIGHT = 320;
const GROUP_PADDING = 0.2;
const CLASS_FONT = 9;

/**
 * Which segments carry their class's name: those of a tenth of their bar or
 * more, biggest first, each kept unless its label would overlap one kept
 * already (a name is wider than a 40 px bar, so two neighbours at one
 * height collided). Positions are the plot's pixels: band centres from the
 * paddings the spec sets, the segment's middle on the 0–1 axis.
 */
function classLabelsShown(rows: readonly { group: string; engine: string; opClass: string; frac: number; big: boolean; mid0: number }[], groups: readonly string[], engines: readonly string[], width: number): boolean[] {
  const step = width / (groups.length - GROUP_PADDING + 2 * GROUP_PADDING);
  const band = step * (1 - GROUP_PADDING);
  const kept: Box[] = [];
  const shown = rows.map(() => false);
  const order = rows.map((_, i) => i).sort((i, j) => (rows[j]?.frac ?? 0) - (rows[i]?.frac ?? 0));
  for (const i of order) {
    const r = rows[i];
    if (r === undefined || !r.big) continue;
    const cx = step * GROUP_PADDING + groups.indexOf(r.group) * step + (engines.indexOf(r.engine) + 0.5) * (band / engines.length);
    const cy = BREAKDOWN_HEIGHT * (1 - r.mid0);
    const half = measureDejaVu(r.opClass, CLASS_FONT, false) / 2 + 1;
    const box = { x0: cx - half, x1: cx + half, y0: cy - CLASS_FONT * 0.6, y1: cy + CLASS_FONT * 0.6 };
    if (kept.some((k) => intersects(k, box))) continue;
    kept.push(box);
    shown[i] = true;
  }
  return shown;
}

/**
 * time-breakdown.png: at each batch size one stacked bar per engine, its
 * whole the profiled engine time per batch, split into the shares of its
 * op classes (opacity steps, darkest first, a class holding a tenth or more
 * named on it) with the outside-kernels part on top, coloured by engine with
 * the comparison chart's scheme and order.
 */
export function timeBreakdownSpec(run: RunRecord): TopLevelSpec {
  const cells = profiledCells(run);
  const engines = engineOrder(cells);
  const classes = [...OP_CLASSES, OUTSIDE_CLASS];
  const rows = cells.flatMap((p) =>
    classRowsOf(p).map((r) => ({
      engine: p.engine,
      group: `batch ${p.cell.batchSize}${p.variant ? ` · ${p.variant}` : ''}`,
      opClass: r.opClass,
      order: classes.indexOf(r.opClass),
      ms: r.msPerBatch,
      share: `${(r.share * 100).toFixed(1)}%`,
      frac: r.share,
      big: r.share >= 0.1,
      source: p.cell.profile.source,
    })),
  );
  // Each segment's middle, as the stack transform below computes it, for placing the class labels.
  const stacked = rows.map((r) => {
    const below = rows.filter((o) => o.group === r.group && o.engine === r.engine && o.order < r.order).reduce((sum, o) => sum + o.frac, 0);
    return { ...r, mid0: below + r.frac / 2 };
  });
  const groups = [...new Set(stacked.map((v) => v.group))];
  const width = Math.max(360, groups.length * engines.length * 40);
  const shown = classLabelsShown(stacked, groups, engines, width);
  const values = stacked.map(({ mid0: _mid, ...r }, i) => ({ ...r, labelled: shown[i] ?? false }));
  const sources = [...new Set(cells.map((p) => `${p.engine}: ${p.cell.profile.source}`))];
  return {
    $schema: 'https://vega.github.io/schema/vega-lite/v6.json',
    width,
    height: BREAKDOWN_HEIGHT,
    config: { font: CHART_FONT },
    title: {
      text: 'Where the time goes: share of the profiled engine time per batch, by op class',
      subtitle: [
        'one untimed profiled pass per cell after its timed rounds · bar: engine time per batch of that pass (the instrument\'s overhead included) = 100% · segments: op classes, outside kernels on top; ms per batch in profile.csv and the tooltip',
        `sources: ${sources.join(' · ')}`,
        `${run.environment.cpuModel}, ${run.environment.cores} cores · node ${run.environment.node} · ${formatTimestamp(run.environment.date)}`,
      ],
      anchor: 'start',
    },
    data: { values },
    // Stacked once here, so the bars and their labels share the same segments.
    transform: [
      { stack: 'frac', groupby: ['group', 'engine'], sort: [{ field: 'order', order: 'ascending' }], as: ['y0', 'y1'] },
      { calculate: '(datum.y0 + datum.y1) / 2', as: 'mid' },
    ],
    encoding: {
      // Paddings set here, not left to vega-lite's defaults, so classLabelsShown knows where each bar is.
      x: { field: 'group', type: 'ordinal', title: 'batch size', sort: groups, axis: { labelAngle: 0 }, scale: { paddingInner: GROUP_PADDING, paddingOuter: GROUP_PADDING } },
      xOffset: { field: 'engine', type: 'nominal', sort: engines, scale: { domain: engines, paddingInner: 0, paddingOuter: 0 } },
    },
    layer: [
      {
        mark: { type: 'bar', stroke: '#ffffff', strokeWidth: 0.5 },
        encoding: {
          y: { field: 'y0', type: 'quantitative', title: 'share of the profiled engine time', axis: { format: '.0%' }, scale: { domain: [0, 1] } },
          y2: { field: 'y1' },
          color: { field: 'engine', type: 'nominal', sort: engines, scale: colorScale(engines), legend: { title: 'engine', orient: 'right', symbolType: 'square' } },
          opacity: { field: 'opClass', type: 'ordinal', sort: classes, scale: { type: 'ordinal', domain: classes, range: classes.map((_, i) => 1 - (i * 0.8) / (classes.length - 1)) }, legend: { title: 'op class (darkest first)', orient: 'right', symbolType: 'square', symbolFillColor: '#555555' } },
          tooltip: [
            { field: 'engine', type: 'nominal' },
            { field: 'group', type: 'nominal', title: 'batch' },
            { field: 'opClass', type: 'nominal', title: 'op class' },
            { field: 'ms', type: 'quantitative', title: 'ms per batch', format: '.3f' },
            { field: 'share', type: 'nominal' },
            { field: 'source', type: 'nominal' },
          ],
        },
      },
      {
        // The class of each segment holding at least a tenth of its bar, written on it where it overlaps no other bar's (classLabelsShown).
        transform: [{ filter: 'datum.labelled' }],
        mark: { type: 'text', fontSize: CLASS_FONT, baseline: 'middle', color: '#111111' },
        encoding: { y: { field: 'mid', type: 'quantitative' }, text: { field: 'opClass' } },
      },
    ],
  } as TopLevelSpec;
}

/** Writes profile.csv and profile.parquet through `write` (the run's atomic writer) when a cell was profiled; nothing otherwise. */
export async function writeProfileFiles(run: RunRecord, write: (name: string, data: string | Uint8Array) => Promise<void>): Promise<void> {
  if (profiledCells(run).length === 0) return;
  await write(PROFILE_FILES.csv, renderProfileCsv(run));
  const { renderParquet } = await import('./parquet-report.js');
  await write(PROFILE_FILES.parquet, await renderParquet(profileCallsTable(run)));
}

/** Writes time-breakdown.png after the run's other charts, when a cell was profiled. */
export async function writeProfileChart(run: RunRecord, write: (name: string, data: string | Uint8Array) => Promise<void>): Promise<void> {
  if (profiledCells(run).length === 0) return;
  const { renderPng } = await import('./png-chart.js');
  await write(PROFILE_FILES.png, await renderPng(timeBreakdownSpec(run)));
}
