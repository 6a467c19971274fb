import type { IncomingMessage, ServerResponse } from 'node:http';
import type { HistoryDetail } from '../runs/history/history-entry.js';
import { entryCommand, recordOf } from '../runs/history/entry-record.js';
import { registeredScenarios, scenarioOfConfig, ViewParamError, type Scenario } from '../scenarios/scenario-registry.js';
import type { ApiContext } from './api-routes.js';
import { HttpError, parseId, sendJson } from './http-util.js';
import { wrapSpecTitles } from '../../reports/chart-width.js';
import { withDefaultPanel } from './entry-view.js';

type AnyRecord = NonNullable<ReturnType<typeof recordOf>>;

async function requireRecord(ctx: ApiContext, id: number): Promise<{ entry: HistoryDetail; record: AnyRecord | null }> {
  const entry = await ctx.store.get(id);
  if (!entry) throw new HttpError(404, `no benchmark with id ${id}`, 'refresh the list');
  return { entry, record: recordOf(entry) };
}

/**
 * The views of one benchmark, as its scenario draws them
 * (src/runs/scenario-registry.ts): for `run` the baseline, core-scaling and
 * batch-scaling views with the values the user picked; for the others their
 * own tables and charts. A bad view parameter is a 400 naming it.
 */
async function getViews(ctx: ApiContext, res: ServerResponse, id: number, url: URL): Promise<void> {
  const { entry, record } = await requireRecord(ctx, id);
  const scenario = scenarioOfConfig(entry.config);
  const kind = scenario.command;
  if (record === null || (record.cells.length === 0 && scenario.viewsWithoutCells !== true)) {
    sendJson(res, 200, { id, state: entry.state, kind, available: false });
    return;
  }
  let views: Record<string, unknown>;
  try {
    views = withDefaultPanel(scenario, record, scenario.views(record, url.searchParams));
  } catch (err) {
    if (err instanceof ViewParamError) throw new HttpError(400, err.message, err.fix, err.field);
    throw err;
  }
  // Chart titles wrapped to a panel's width (reports/chart-width.ts), so no subtitle is cut at its right edge.
  sendJson(res, 200, wrapSpecTitles({ id, state: entry.state, kind, available: true, ...views }));
}

/**
 * Two benchmarks side by side (`?a=1&b=2`), as their scenario compares them
 * (for `run`, the per-cell comparison with calls from the log-ratio t-test
 * on round means, and its chart): only two benchmarks of one scenario that
 * has a comparison, both started.
 */
async function getComparison(ctx: ApiContext, res: ServerResponse, url: URL): Promise<void> {
  const idA = parseId(url.searchParams.get('a'), 'a');
  const idB = parseId(url.searchParams.get('b'), 'b');
  const [a, b] = await Promise.all([requireRecord(ctx, idA), requireRecord(ctx, idB)]);
  const [scenarioA, scenarioB] = [scenarioOfConfig(a.entry.config), scenarioOfConfig(b.entry.config)];
  const comparable = registeredScenarios().filter((s) => s.compare?.json !== undefined).map((s) => `\`${s.command}\``);
  const refuse = (r: typeof a, scenario: Scenario, side: string): HttpError =>
    new HttpError(409, `benchmark ${r.entry.id} is a ${scenario.command} run; Compare matches the cells of two benchmarks of one command (${comparable.join(' or ')})`, scenario.compare?.hint ?? 'pick two benchmarks of one command', side);
  if (scenarioA.compare?.json === undefined) throw refuse(a, scenarioA, 'a');
  if (scenarioB.compare?.json === undefined) throw refuse(b, scenarioB, 'b');
  if (scenarioB !== scenarioA) {
    throw new HttpError(409, `benchmark ${idA} is a \`${scenarioA.command}\` benchmark and benchmark ${idB} a \`${scenarioB.command}\` one; Compare matches the cells of two benchmarks of one command`, scenarioB.compare.hint ?? 'pick two benchmarks of one command', 'b');
  }
  if (a.record === null) throw new HttpError(409, `benchmark ${a.entry.id} has not started yet`, 'compare it once it has run', 'a');
  if (b.record === null) throw new HttpError(409, `benchmark ${b.entry.id} has not started yet`, 'compare it once it has run', 'b');
  sendJson(res, 200, wrapSpecTitles(scenarioA.compare.json({ id: idA, record: a.record }, { id: idB, record: b.record })));
}

/**
 * The benchmarks this one can be compared with (`/api/runs/<id>/comparable`):
 * other benchmarks of its scenario that share at least one key with it (the
 * scenario says what two records match on: for `run` the cell key
 * /api/compare matches on, for load each engine's peak and each engine at each rate), each with how many, so the
 * picker never offers a benchmark Compare refuses, or one with nothing in common.
 */
async function getComparable(ctx: ApiContext, res: ServerResponse, id: number): Promise<void> {
  const { entry, record } = await requireRecord(ctx, id);
  const scenario = scenarioOfConfig(entry.config);
  const keysOf = (r: AnyRecord | null): ReadonlySet<string> | null => (r === null || scenario.compare?.keys === undefined ? null : scenario.compare.keys(r));
  const own = keysOf(record);
  const command = scenario.command;
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
