/**
 * The per-host views of a distributed run (`run --queue`): which machines
 * measured it (the fingerprints workers registered), and samples/s of each
 * engine and batch size side by side per host, as a table and a chart.
 * Local runs have no hosts, and none of this is shown for them.
 */
import type { TopLevelSpec } from 'vega-lite';
import type { EnvironmentInfo, RunRecord } from '../src/core/results.js';
import { formatBytes, formatRate } from '../src/core/units.js';
import { CHART_FONT } from './chart-spec.js';
import { hasHosts, hostOrder, modelOrder } from './run-summary.js';
import { renderTable, type Column, type TableCell, type TableRow } from './text-table.js';
import { baselineRows, type BaselineRow } from './run-views.js';
import { colorScale } from './engine-palette.js';

/** One worker as the run config recorded it. */
interface RecordedWorker {
  readonly name: string;
  readonly id: string;
  readonly environment?: EnvironmentInfo;
}

/** The workers of the run's `config.queue.workers`, read defensively (older or hand-edited records). */
export function recordedWorkers(run: RunRecord): RecordedWorker[] {
  const queue = run.config['queue'] as { workers?: unknown } | undefined;
  return Array.isArray(queue?.workers) ? (queue.workers as RecordedWorker[]).filter((w) => typeof w?.name === 'string') : [];
}

/** samples/s of one cell with the main tables' flags; a cell without a whole pass has no figure, only its flag. */
const rate = (r: BaselineRow | undefined): TableCell => {
  if (!r) return '';
  if (r.state !== 'completed') return { text: r.state, style: r.state === 'errored' ? 'red' : 'yellow' };
  const value = r.samplesPerSecond === null ? 'n/a' : formatRate(r.samplesPerSecond);
  const text = [value, ...r.flags].join(' ');
  return r.flags.length === 0 ? text : { text, style: r.parityOk === false ? 'red' : 'yellow' };
};

/** Every part of a cell's key but its host: the rows of SAMPLES/S BY HOST. */
function keyWithoutHost(r: BaselineRow): string {
  return [r.model, r.engine, r.threads ?? 'default', r.batchSize, r.sequenceLength ?? ''].join('\u0000');
}

function threadsLabel(t: number | null): string {
  return t === null ? 'default' : String(t);
}

/** `onnx-cpu · 2 threads · seq 128`: a chart series, naming every part of the key that varies. */
function seriesName(r: BaselineRow, multiModel: boolean, multiSeq: boolean): string {
  return [multiModel ? r.model : null, r.engine, `${threadsLabel(r.threads)} thread${r.threads === 1 ? '' : 's'}`, multiSeq && r.sequenceLength !== null ? `seq ${r.sequenceLength}` : null].filter((p) => p !== null).join(' · ');
}

/** HOSTS (the machines) and SAMPLES/S BY HOST (engine × batch rows, one column per host); empty for a local run. */
export function hostSections(run: RunRecord, minWidth: number, color: boolean): string[] {
  if (!hasHosts(run)) return [];
  const hosts = hostOrder(run);
  const workers = recordedWorkers(run);
  const machineRows: TableRow[] = hosts.map((name) => {
    const w = workers.find((x) => x.name === name);
    const env = w?.environment;
    const cells = run.cells.filter((c) => c.host?.name === name);
    const retries = cells.reduce((n, c) => n + (c.host?.retries ?? 0), 0);
    const done = cells.filter((c) => c.state === 'completed').length;
    return {
      cells: [
        { text: name, style: 'cyan' },
        w?.id ?? cells[0]?.host?.id ?? '?',
        env ? `${env.cpuModel}, ${env.cores} cores, ${formatBytes(env.memoryBytes)}` : '?',
        env ? (env.gpus.length > 0 ? env.gpus.join(', ') : 'none') : '?',
        env ? `${env.os} · node ${env.node}` : '?',
        `${done}/${cells.length}`,
        String(retries),
      ],
    };
  });
  const machineColumns: Column[] = ['host', 'machine', 'cpu', 'gpu', 'os · runtime', 'completed', 'retried'].map((header) => ({ header, align: header === 'completed' || header === 'retried' ? 'right' : 'left' }));
  const multiModel = modelOrder(run).length > 1;
  const viewRows = baselineRows(run).filter((r) => r.key.host !== null);
  const withSeq = viewRows.some((r) => r.sequenceLength !== null);
  // One row per cell key (model, engine, threads read back, batch, sequence length), one column per host: no two cells share a row.
  const keys = [...new Set(viewRows.map(keyWithoutHost))];
  const rows: TableRow[] = keys.map((key, i) => {
    const same = viewRows.filter((r) => keyWithoutHost(r) === key);
    const first = same[0] as BaselineRow;
    const previous = i > 0 ? viewRows.find((r) => keyWithoutHost(r) === keys[i - 1]) : undefined;
    return {
      cells: [
        ...(multiModel ? [first.model] : []),
        { text: first.engine, style: 'cyan' as const },
        threadsLabel(first.threads),
        String(first.batchSize),
        ...(withSeq ? [first.sequenceLength === null ? 'text' : String(first.sequenceLength)] : []),
        ...hosts.map((h) => rate(same.find((r) => r.key.host === h))),
      ],
      ruleAbove: previous !== undefined && (previous.batchSize !== first.batchSize || previous.model !== first.model),
    };
  });
  const columns: Column[] = [
    ...(multiModel ? [{ header: 'model', align: 'left' } as const] : []),
    { header: 'engine', align: 'left' },
    { header: 'threads', align: 'right' },
    { header: 'batch', align: 'right' },
    ...(withSeq ? [{ header: 'seq', align: 'right' } as const] : []),
    ...hosts.map((h): Column => ({ header: h, align: 'right' })),
  ];
  return [
    ...renderTable({ title: 'HOSTS', columns: machineColumns, rows: machineRows, color, minWidth }).lines,
    'Each host is a queue worker (inferbench worker --name); "machine" is its fingerprint id: equal ids, alike machines.',
    '',
    ...renderTable({ title: 'SAMPLES/S BY HOST', columns, rows, color, minWidth }).lines,
    'Rows of one pass per second of engine time per pass (mean of round means), threads as each engine reported them, with the main tables\' flags (NOISY, PARTIAL: no whole pass so no figure, ✗ PARITY); each host measured its rounds back to back (no interleaving across hosts).',
  ];
}

/** Grouped bars of samples/s per engine per host, one panel per batch size; null for a local run. */
export function hostChartSpec(run: RunRecord): TopLevelSpec | null {
  if (!hasHosts(run)) return null;
  const rows = baselineRows(run).filter((r) => r.key.host !== null);
  const multiModel = modelOrder(run).length > 1;
  const multiSeq = new Set(rows.map((r) => r.sequenceLength)).size > 1;
  const drawn = rows.filter((r) => r.state === 'completed' && r.samplesPerSecond !== null);
  const engines = [...new Set(drawn.map((r) => seriesName(r, multiModel, multiSeq)))];
  const batches = [...new Set(rows.map((r) => r.batchSize))].sort((x, y) => x - y);
  const values = drawn.map((r) => ({
    host: r.key.host ?? '',
    engine: seriesName(r, multiModel, multiSeq),
    batch: `batch ${r.batchSize}`,
    samplesPerSecond: r.samplesPerSecond,
    label: [formatRate(r.samplesPerSecond ?? 0), ...r.flags].join(' '),
  }));
  const missing = rows
    .filter((r) => r.state !== 'completed' || r.samplesPerSecond === null)
    .map((r) => `${seriesName(r, multiModel, multiSeq)} @ ${r.key.host} batch ${r.batchSize} (${r.state !== 'completed' ? r.state : (r.partial ?? 'no whole pass')})`);
  return {
    $schema: 'https://vega.github.io/schema/vega-lite/v6.json',
    title: {
      text: 'samples/s per engine per host, higher is better',
      subtitle: [`hosts: ${hostOrder(run).join(', ')} · rows of one pass per second of engine time per pass (mean of round means), threads as read back`, ...(missing.length ? [`not shown: ${missing.join(', ')}`] : [])],
      anchor: 'start',
      fontSize: 15,
      subtitleFontSize: 11,
      subtitleColor: '#555555',
    },
    data: { values },
    background: 'white',
    padding: 16,
    config: { font: CHART_FONT, view: { stroke: null }, axis: { labelFontSize: 11, titleFontSize: 12 } },
    facet: { column: { field: 'batch', type: 'nominal', title: null, sort: batches.map((b) => `batch ${b}`) } },
    spec: {
      width: Math.max(160, hostOrder(run).length * (engines.length + 1) * 22),
      height: 280,
      layer: [
        { mark: { type: 'bar', cornerRadiusEnd: 2 } },
        { mark: { type: 'text', angle: 270, align: 'left', baseline: 'middle', dx: 4, fontSize: 10 }, encoding: { text: { field: 'label' } } },
      ],
      encoding: {
        x: { field: 'host', type: 'nominal', title: 'host', axis: { labelAngle: 0 } },
        xOffset: { field: 'engine', type: 'nominal', sort: engines },
        y: { field: 'samplesPerSecond', type: 'quantitative', title: 'samples/s' },
        color: { field: 'engine', type: 'nominal', sort: engines, scale: colorScale(engines), legend: { title: 'engine' } },
        tooltip: [{ field: 'host' }, { field: 'engine' }, { field: 'batch' }, { field: 'label', title: 'samples/s' }],
      },
    },
  } as TopLevelSpec;
}
