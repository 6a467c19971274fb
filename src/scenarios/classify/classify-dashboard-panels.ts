/**
 * The dashboard's panels of a `run` (classification) benchmark, said as
 * reports/dashboard-panels.ts says any scenario's: Baseline (every cell's
 * figures under the latency distribution, with a link that shows only the
 * NOISY cells), Core scaling and Batch-size scaling (each with the
 * drop-down of its fixed value), and Where the time goes (the terminal's
 * WHERE THE TIME GOES tables of src/scenarios/classify/profile-dashboard-view.ts). The
 * figures are the server's view rows (reports/run-views.ts); the page only
 * lays these out.
 */
import type { TopLevelSpec } from 'vega-lite';
import type { BaselineRow, KeyColumns, ViewCellKey } from '../../../reports/run-views.js';
import type { profileView } from './profile-dashboard-view.js';
import { figure, left, right, type Block, type Cell, type Column, type DashboardTab, type Panel, type Row, type Table } from '../../../reports/dashboard-panels.js';

/** The tabs of a `run` benchmark, each keying its panel. */
export const CLASSIFY_TABS: readonly DashboardTab[] = [
  { id: 'baseline', title: 'Baseline' },
  { id: 'core', title: 'Core scaling' },
  { id: 'batch', title: 'Batch-size scaling' },
  { id: 'profile', title: 'Where the time goes' },
];

/** The views a `run` benchmark's panels are made of (src/runs/scenarios/classify-scenario.ts `views`). */
export interface ClassifyViews {
  readonly baseline: { readonly rows: readonly BaselineRow[]; readonly columns: KeyColumns; readonly spec: TopLevelSpec | null; readonly insufficient: string | null };
  readonly coreScaling: { readonly options: readonly number[]; readonly fixed: number | null; readonly insufficient: string | null; readonly spec: TopLevelSpec | null };
  readonly batchScaling: { readonly options: readonly (number | null)[]; readonly fixed: number | null; readonly insufficient: string | null; readonly spec: TopLevelSpec | null };
  readonly profile: ReturnType<typeof profileView>;
}

/** The key columns a run's rows differ in (keyColumns): model, variant, sequence length; the engine label names threads and host. */
const KEY_COLUMNS: readonly [keyof KeyColumns, Column, (k: ViewCellKey) => string][] = [
  ['model', left('model'), (k) => k.baseModel ?? k.model],
  ['variant', left('variant'), (k) => k.variant ?? '–'],
  ['sequenceLength', right('seq'), (k) => String(k.sequenceLength ?? 'text')],
];

/**
 * Every cell's figures: engine time per batch as the mean of round means,
 * one pass as the unit, threads read back; a cell without a whole pass has
 * no total and no samples/s.
 */
function baselineTable(rows: readonly BaselineRow[], columns: KeyColumns): Table {
  const keys = KEY_COLUMNS.filter(([name]) => columns[name]);
  const figures = [
    right('total / pass', 'engine time of one pass over the rows'),
    right('mean', 'engine time per batch, mean of round means'),
    right('p50'),
    right('p99'),
    right('samples/s'),
    right('e2e / pass', "end to end: callbacks, engine and read-back (a pipeline's whole call)"),
    left('verdict'),
  ];
  return {
    columns: [...keys.map(([, column]) => column), left('engine'), right('threads'), right('batch'), ...figures],
    empty: 'No cell measured yet.',
    rows: rows.map((r): Row => {
      const named: Cell[] = [...keys.map(([, , value]) => value(r.key)), r.label, String(r.threads ?? r.requestedThreads ?? 'default'), String(r.batchSize)];
      const tag = r.verdict?.status ?? '';
      if (r.state !== 'completed') return { cells: named, reason: `${r.state}: ${r.reason ?? ''}`, tag };
      const flags = r.flags.filter((f) => f !== '✗ PARITY' && f !== 'NOISY');
      const partial = r.partial !== null;
      const verdict: Cell = { parts: [[tag, ...flags].join(' '), ...(r.parityOk === false ? [' ', { text: '✗ parity', bad: true as const }] : [])] };
      return {
        tag,
        cells: [
          ...named,
          partial ? 'n/a' : figure(r.engineTime?.passMs, 'ms'),
          figure(r.meanMs, 'ms'),
          figure(r.latency?.p50, 'ms'),
          figure(r.latency?.p99, 'ms'),
          figure(r.samplesPerSecond, '/s'),
          partial ? 'n/a' : figure(r.endToEnd?.passMs, 'ms'),
          verdict,
        ],
      };
    }),
  };
}

/**
 * The NOISY cells in a line above the Baseline table, with a link that
 * shows only them: the chart's header names the first and counts the rest
 * ("and 9 more"), the table has them all.
 */
function noisyNote(rows: readonly BaselineRow[]): Block[] {
  const noisy = rows.filter((r) => r.verdict?.status === 'NOISY').length;
  return noisy === 0 ? [] : [{ note: `${noisy} of ${rows.length} cells NOISY (their rounds disagree, or too few batches):`, filter: { tag: 'NOISY', show: 'show only those', undo: 'show every cell' } }];
}

function insufficient(text: string | null): Block[] {
  return text === null ? [] : [{ note: text }];
}

function threadLabel(threads: number | null): string {
  return threads === null ? 'engine default' : `${threads} core${threads === 1 ? '' : 's'}`;
}

const share = (x: number) => ({ value: x, unit: '%' as const });

/** Where the time goes: one table per batch size, op classes as rows and engines as columns, then the engine-time rows. */
function profilePanel(view: ClassifyViews['profile']): Panel {
  if (view === null) return { chart: { spec: null, empty: 'This benchmark was not profiled: run with --profile (or tick "Profile each cell" when adding one) to see where the time goes.' }, below: [] };
  const tables = view.tables.map((t): Table => {
    const row = (label: string, cells: readonly Cell[], rule = false): Row => ({ cells: [label, ...cells], ...(rule ? { rule } : {}) });
    return {
      heading: t.title,
      className: 'profile-table',
      columns: [left('op class'), ...t.engines.map((e) => right(e.engine))],
      rows: [
        ...t.rows.map((r) => row(r.opClass, r.cells.map((c) => (c === null ? '–' : { parts: [figure(c.msPerBatch, 'ms'), ' ', share(c.share)] })), r.outside)),
        row('profiled engine time', t.engines.map((e) => figure(e.profiledMsPerBatch, 'ms')), true),
        row('timed mean', t.engines.map((e) => figure(e.timedMsPerBatch, 'ms'))),
        row('source', t.engines.map((e) => e.source)),
        ...(t.engines.some((e) => e.unattributed !== null) ? [row('unattributed', t.engines.map((e) => ({ parts: [e.unattributed ?? '–'], muted: true })))] : []),
      ],
    };
  });
  const lines = [...view.largest, ...(view.unclassified.length > 0 ? [`op types the taxonomy lacks, counted as other: ${view.unclassified.join(', ')}`] : []), ...view.notes, view.note];
  return { chart: { spec: view.spec }, below: [...tables.map((table) => ({ table })), ...lines.map((note) => ({ note }))] };
}

/** The four panels of a `run` benchmark, keyed by CLASSIFY_TABS' ids. */
export function classifyPanels(v: ClassifyViews): Record<string, Panel> {
  const core = v.coreScaling;
  const batch = v.batchScaling;
  return {
    baseline: { chart: { spec: v.baseline.spec }, below: [...insufficient(v.baseline.insufficient), ...noisyNote(v.baseline.rows), { table: baselineTable(v.baseline.rows, v.baseline.columns) }] },
    core: {
      controls: [{ id: 'core-batch', label: 'Batch size', param: 'batchSize', options: core.options.map((b) => ({ value: String(b), label: `batch ${b}` })), value: String(core.fixed) }],
      chart: { spec: core.spec },
      below: insufficient(core.insufficient),
    },
    batch: {
      controls: [{ id: 'batch-threads', label: 'Core count', param: 'threads', options: batch.options.map((t) => ({ value: t === null ? 'default' : String(t), label: threadLabel(t) })), value: batch.fixed === null ? 'default' : String(batch.fixed) }],
      chart: { spec: batch.spec },
      below: insufficient(batch.insufficient),
    },
    profile: profilePanel(v.profile),
  };
}
