import type { IncomingMessage, ServerResponse } from 'node:http';
import type { RunRecord } from '../core/results.js';
import { entryCommand, isGenerationRecord, isLoadRecord, isTrainingRecord, recordOf, type HistoryDetail } from '../runs/history/history-entry.js';
import { serverComparisonJson, serverViewsJson } from './server-view-routes.js';
import { serverPeakRows } from '../../reports/server-views.js';
import { baselineRows, keyColumns, batchScalingView, coreScalingView, latencyDistributionView, threadSettings } from '../../reports/run-views.js';
import { latencyDistributionChartSpec } from '../../reports/latency-chart.js';
import { batchScalingChartSpec, coreScalingChartSpec, runComparisonChartSpec } from '../../reports/view-charts.js';
import { acrossRounds, cellMatchKey, compareRuns, ratioText } from '../../reports/run-comparison.js';
import { batchSizes } from '../../reports/run-summary.js';
import { formatTimestamp } from '../core/units.js';
import type { ApiContext } from './api-routes.js';
import { HttpError, parseId, sendJson } from './http-util.js';
import { generationViews, trainingViews } from './scenario-view-data.js';

type AnyRecord = NonNullable<ReturnType<typeof recordOf>>;

async function requireRecord(ctx: ApiContext, id: number): Promise<{ entry: HistoryDetail; record: AnyRecord | null }> {
  const entry = await ctx.store.get(id);
  if (!entry) throw new HttpError(404, `no benchmark with id ${id}`, 'refresh the list');
  return { entry, record: recordOf(entry) };
}

/** `?batchSize=8` for core scaling; absent means the view's default (the largest). */
function batchSizeParam(url: URL): number | undefined {
  const raw = url.searchParams.get('batchSize');
  if (raw === null) return undefined;
  if (!/^\d{1,6}$/.test(raw) || Number(raw) === 0) throw new HttpError(400, `batchSize must be a positive whole number, got "${raw}"`, 'pick one from the drop-down', 'batchSize');
  return Number(raw);
}

/** `?threads=4` or `?threads=default` for batch scaling; absent means the view's default. */
function threadsParam(url: URL): number | null | undefined {
  const raw = url.searchParams.get('threads');
  if (raw === null) return undefined;
  if (raw === 'default') return null;
  if (!/^\d{1,4}$/.test(raw) || Number(raw) === 0) throw new HttpError(400, `threads must be a positive whole number or "default", got "${raw}"`, 'pick one from the drop-down', 'threads');
  return Number(raw);
}

/**
 * The three views of one benchmark with the fixed values the user picked:
 * baseline (every cell's figures, latency distribution chart), core
 * scaling at one batch size, batch-size scaling at one core count. The
 * charts are the vega-lite specs of reports/view-charts.ts, the same the
 * PNG reports use; the page draws them with vega-embed.
 */
async function getViews(ctx: ApiContext, res: ServerResponse, id: number, url: URL): Promise<void> {
  const { entry, record } = await requireRecord(ctx, id);
  const kind = entryCommand(entry.config);
  // Load runs have their own views (server-view-routes.ts).
  if (record !== null && isLoadRecord(record)) {
    sendJson(res, 200, serverViewsJson(id, entry.state, record));
    return;
  }
  if (record === null || record.cells.length === 0) {
    sendJson(res, 200, { id, state: entry.state, kind, available: false });
    return;
  }
  // Generate and train runs have other cells, and their own tables and charts.
  if (isGenerationRecord(record)) return sendJson(res, 200, { id, state: entry.state, available: true, ...generationViews(record) });
  if (isTrainingRecord(record)) return sendJson(res, 200, { id, state: entry.state, available: true, ...trainingViews(record) });
  const batchSize = batchSizeParam(url);
  const threads = threadsParam(url);
  const sizes = batchSizes(record);
  const threadOptions = threadSettings(record);
  if (batchSize !== undefined && !sizes.includes(batchSize)) throw new HttpError(400, `batchSize ${batchSize} was not measured in benchmark ${id}`, `pick one of ${sizes.join(', ')}`, 'batchSize');
  if (threads !== undefined && !threadOptions.includes(threads)) throw new HttpError(400, `threads ${threads ?? 'default'} was not measured in benchmark ${id}`, 'pick a core count from the drop-down', 'threads');
  const core = coreScalingView(record, batchSize === undefined ? {} : { batchSize });
  const batch = batchScalingView(record, threads === undefined ? {} : { threads });
  const latency = latencyDistributionView(record);
  const rows = baselineRows(record);
  sendJson(res, 200, {
    id,
    state: entry.state,
    kind,
    available: true,
    baseline: { rows, columns: keyColumns(rows.map((r) => r.key)), spec: latency.insufficient === null ? latencyDistributionChartSpec(record) : null, insufficient: latency.insufficient },
    coreScaling: {
      options: sizes,
      fixed: core.fixed.batchSize,
      insufficient: core.insufficient,
      spec: core.insufficient === null ? coreScalingChartSpec(record, core.fixed.batchSize === null ? {} : { batchSize: core.fixed.batchSize }) : null,
    },
    batchScaling: {
      options: threadOptions,
      fixed: batch.fixed.threads,
      insufficient: batch.insufficient,
      spec: batch.insufficient === null ? batchScalingChartSpec(record, { threads: batch.fixed.threads }) : null,
    },
  });
}

/** The run as the comparison chart should name it: history id and date rather than the folder id. */
function labelled(entry: HistoryDetail, record: RunRecord): RunRecord {
  return { ...record, id: `#${entry.id} (${formatTimestamp(record.startedAt)})` };
}

/**
 * Two benchmarks side by side (`?a=1&b=2`): the per-cell comparison with
 * calls from reports/run-comparison.ts (the log-ratio t-test on round means) and its chart.
 */
async function getComparison(ctx: ApiContext, res: ServerResponse, url: URL): Promise<void> {
  const idA = parseId(url.searchParams.get('a'), 'a');
  const idB = parseId(url.searchParams.get('b'), 'b');
  const [a, b] = await Promise.all([requireRecord(ctx, idA), requireRecord(ctx, idB)]);
  if (a.record !== null && b.record !== null && isLoadRecord(a.record) && isLoadRecord(b.record)) {
    sendJson(res, 200, serverComparisonJson(idA, idB, a.record, b.record));
    return;
  }
  const records = [a, b].map((r, i) => {
    const side = i === 0 ? 'a' : 'b';
    const command = entryCommand(r.entry.config);
    // Only `run` benchmarks have the per-batch cells this comparison matches; `inferbench compare` takes generate runs, load runs compare with load runs.
    if (command !== 'run') {
      const fix =
        command === 'generate'
          ? 'pick a `run` benchmark here, or compare two generate runs with `inferbench compare`'
          : command === 'load'
            ? 'pick two load benchmarks'
            : 'pick a `run` benchmark';
      throw new HttpError(409, `benchmark ${r.entry.id} is a ${command} run; Compare matches the cells of two \`run\` benchmarks${command === 'load' ? ' or of two load benchmarks' : ''}`, fix, side);
    }
    if (r.record === null || isGenerationRecord(r.record) || isTrainingRecord(r.record) || isLoadRecord(r.record)) throw new HttpError(409, `benchmark ${r.entry.id} has not started yet`, 'compare it once it has run', side);
    return labelled(r.entry, r.record);
  });
  const [recA, recB] = records as [RunRecord, RunRecord];
  const comparison = compareRuns(recA, recB);
  const completedBoth = comparison.cells.some((c) => c.a.state === 'completed' && c.b.state === 'completed');
  sendJson(res, 200, {
    a: { id: idA },
    b: { id: idB },
    spec: completedBoth ? runComparisonChartSpec(recA, recB, comparison) : null,
    cells: comparison.cells.map((c) => ({
      label: c.label,
      aMeanMs: c.a.state === 'completed' ? acrossRounds(c.a).mean : null,
      bMeanMs: c.b.state === 'completed' ? acrossRounds(c.b).mean : null,
      roundsA: c.roundsA,
      roundsB: c.roundsB,
      ratio: c.ratio,
      ratioCi: c.ratioCi,
      p: c.p,
      call: c.call,
      callText: `${c.call === 'faster' || c.call === 'slower' ? `${ratioText(c.ratio)} ${c.call}` : c.call}${c.note ? ` (${c.note})` : ''}`,
    })),
    onlyInA: comparison.onlyInA.length,
    onlyInB: comparison.onlyInB.length,
  });
}

/**
 * The benchmarks this one can be compared with (`/api/runs/<id>/comparable`):
 * other `run` benchmarks that share at least one cell with it (the same
 * identity /api/compare matches on: model, engine, batch size, threads used,
 * sequence length, host), each with how many, so the picker never offers a
 * train or generate run, or a run with nothing in common; for a load run,
 * other load runs sharing an engine.
 */
async function getComparable(ctx: ApiContext, res: ServerResponse, id: number): Promise<void> {
  const { entry, record } = await requireRecord(ctx, id);
  // Load runs match by engine label, as compareServerRuns pairs them; run benchmarks by compare's cell key.
  const keysOf = (r: AnyRecord | null): Set<string> | null =>
    r === null || isGenerationRecord(r) || isTrainingRecord(r) ? null : isLoadRecord(r) ? new Set(serverPeakRows(r).map((p) => p.label)) : new Set(r.cells.map(cellMatchKey));
  const own = keysOf(record);
  const command = entryCommand(entry.config);
  const candidates: { id: number; common: number; cells: number }[] = [];
  if (own !== null) {
    for (const other of await ctx.store.list()) {
      if (other.id === entry.id || other.runId === null || entryCommand(other.config) !== command) continue;
      const detail = await ctx.store.get(other.id);
      const keys = detail === null ? null : keysOf(recordOf(detail));
      if (keys === null) continue;
      const common = [...keys].filter((k) => own.has(k)).length;
      if (common > 0) candidates.push({ id: other.id, common, cells: keys.size });
    }
  }
  sendJson(res, 200, { id, cells: own?.size ?? 0, candidates });
}

/** Routes the view and comparison endpoints; null when the path is not one of them. */
export function viewRoute(ctx: ApiContext, req: IncomingMessage, res: ServerResponse, parts: readonly string[], url: URL): Promise<void> | null {
  if (req.method !== 'GET') return null;
  if (parts.length === 3 && parts[0] === 'runs' && parts[2] === 'views') return getViews(ctx, res, parseId(parts[1]), url);
  if (parts.length === 3 && parts[0] === 'runs' && parts[2] === 'comparable') return getComparable(ctx, res, parseId(parts[1]));
  if (parts.length === 1 && parts[0] === 'compare') return getComparison(ctx, res, url);
  return null;
}
