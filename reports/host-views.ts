/**
 * The per-host views of a distributed run (`run --queue`): which machines
 * measured it (the fingerprints workers registered), and samples/s of each
 * engine and batch size side by side per host, as a table and a chart.
 * Local runs have no hosts, and none of this is shown for them.
 */
import type { TopLevelSpec } from 'vega-lite';
import type { CellResult, CompletedCell, EnvironmentInfo, RunRecord } from '../src/core/results.js';
import { formatBytes, formatRate } from '../src/core/units.js';
import { CHART_FONT } from './chart-spec.js';
import { batchSizes, engineOrder, hasHosts, hostOrder, modelOrder, orderedCells } from './run-summary.js';
import { renderTable, type Column, type TableCell, type TableRow } from './text-table.js';

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

const rate = (c: CellResult | undefined): TableCell => {
  if (!c) return '';
  if (c.state === 'completed') return formatRate(c.samplesPerSecond);
  return { text: c.state, style: c.state === 'errored' ? 'red' : 'yellow' };
};

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
  const rows: TableRow[] = [];
  for (const model of modelOrder(run)) {
    for (const batch of batchSizes(run)) {
      for (const engine of engineOrder(run)) {
        const same = run.cells.filter((c) => c.model === model && c.engine === engine && c.batchSize === batch && c.host);
        if (same.length === 0) continue;
        rows.push({
          cells: [...(multiModel ? [model] : []), { text: engine, style: 'cyan' }, String(batch), ...hosts.map((h) => rate(same.find((c) => c.host?.name === h)))],
          ruleAbove: rows.length > 0 && engine === engineOrder(run).find((e) => run.cells.some((c) => c.model === model && c.engine === e && c.batchSize === batch)),
        });
      }
    }
  }
  const columns: Column[] = [...(multiModel ? [{ header: 'model', align: 'left' } as const] : []), { header: 'engine', align: 'left' }, { header: 'batch', align: 'right' }, ...hosts.map((h): Column => ({ header: h, align: 'right' }))];
  return [
    ...renderTable({ title: 'HOSTS', columns: machineColumns, rows: machineRows, color, minWidth }).lines,
    'Each host is a queue worker (inferbench worker --name); "machine" is its fingerprint id: equal ids, alike machines.',
    '',
    ...renderTable({ title: 'SAMPLES/S BY HOST', columns, rows, color, minWidth }).lines,
    'Items per second of engine time; each host measured its rounds back to back (no interleaving across hosts).',
  ];
}

/** Grouped bars of samples/s per engine per host, one panel per batch size; null for a local run. */
export function hostChartSpec(run: RunRecord): TopLevelSpec | null {
  if (!hasHosts(run)) return null;
  const completed = orderedCells(run).filter((c): c is CompletedCell => c.state === 'completed' && c.host !== undefined);
  const multiModel = modelOrder(run).length > 1;
  const engines = [...new Set(completed.map((c) => (multiModel ? `${c.model} ${c.engine}` : c.engine)))];
  const values = completed.map((c) => ({
    host: c.host?.name ?? '',
    engine: multiModel ? `${c.model} ${c.engine}` : c.engine,
    batch: `batch ${c.batchSize}`,
    samplesPerSecond: c.samplesPerSecond,
    label: formatRate(c.samplesPerSecond),
  }));
  const missing = run.cells.filter((c) => c.host && c.state !== 'completed').map((c) => `${c.engine} @ ${c.host?.name} batch ${c.batchSize} (${c.state})`);
  return {
    $schema: 'https://vega.github.io/schema/vega-lite/v6.json',
    title: {
      text: 'samples/s per engine per host, higher is better',
      subtitle: [`hosts: ${hostOrder(run).join(', ')} · items per second of engine time`, ...(missing.length ? [`not shown: ${missing.join(', ')}`] : [])],
      anchor: 'start',
      fontSize: 15,
      subtitleFontSize: 11,
      subtitleColor: '#555555',
    },
    data: { values },
    background: 'white',
    padding: 16,
    config: { font: CHART_FONT, view: { stroke: null }, axis: { labelFontSize: 11, titleFontSize: 12 } },
    facet: { column: { field: 'batch', type: 'nominal', title: null, sort: batchSizes(run).map((b) => `batch ${b}`) } },
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
        color: { field: 'engine', type: 'nominal', sort: engines, scale: { scheme: 'tableau10' }, legend: { title: 'engine' } },
        tooltip: [{ field: 'host' }, { field: 'engine' }, { field: 'batch' }, { field: 'label', title: 'samples/s' }],
      },
    },
  } as TopLevelSpec;
}
