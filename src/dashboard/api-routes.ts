import { availableParallelism } from 'node:os';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { unavailableText, type EngineRegistry } from '../core/engine-registry.js';
import { inferbenchVersion } from '../core/package-info.js';
import { DEFAULT_BATCH_SIZES, DEFAULT_LIMIT, DEFAULT_WARMUP_BATCHES } from '../runs/benchmark-options.js';
import { DEFAULT_ROUNDS, DEFAULT_STOP_RULE } from '../core/stop-rule.js';
import { DEFAULT_CALIBRATION_ROWS } from '../runs/classify-run.js';
import type { HistoryStore } from '../runs/history/history-store.js';
import type { HistorySource } from '../runs/history/history-entry.js';
import { entryModelName } from '../runs/history/entry-record.js';
import { headlineText } from '../runs/history/entry-summary.js';
import { removeEntry } from '../runs/history/remove-entry.js';
import { FieldError } from '../core/field-error.js';
import { HttpError, parseId, readJson, sendJson } from './http-util.js';
import type { PathGuard } from './path-guard.js';
import { scenarioByRoute, type Scenario } from '../scenarios/scenario-registry.js';
import { checkStoredConfig, parseStartRequest } from './run-request.js';
import type { RunQueue } from './run-queue.js';
import { entryView } from './entry-view.js';

/** What every handler needs; built once by the server. */
export interface ApiContext {
  readonly store: HistoryStore;
  readonly queue: RunQueue;
  readonly guard: PathGuard;
  readonly registry: EngineRegistry;
  readonly tokenRequired: boolean;
}

/** The page marks its requests so the history can tell web runs from API calls. */
function sourceOf(req: IncomingMessage): HistorySource {
  return req.headers['x-inferbench-client'] === 'web' ? 'web' : 'api';
}

async function requireEntry(ctx: ApiContext, id: number) {
  const entry = await ctx.store.get(id);
  if (!entry) throw new HttpError(404, `no benchmark with id ${id}`, 'refresh the list');
  return entry;
}

/** The browsers `--browsers` names, each found or not (the run's rows say the rest). */
async function browserChoices(): Promise<{ name: string; available: boolean; reason: string | null }[]> {
  const { BROWSER_VARIANTS } = await import('../../engines/browser/browser-variants.js');
  const { driverFor } = await import('../../engines/browser/browser-drivers.js');
  const out: { name: string; available: boolean; reason: string | null }[] = [];
  for (const v of BROWSER_VARIANTS) {
    const found = await (await driverFor(v.browser)).find();
    out.push({ name: v.name, available: !('reason' in found), reason: 'reason' in found ? `${found.reason} (${found.enable})` : v.optIn });
  }
  return out;
}

/** Settings the form offers and its defaults, plus every engine with its availability. */
export async function getInfo(ctx: ApiContext, res: ServerResponse): Promise<void> {
  // A browser engine's runs in other browsers (`<id>@firefox`) are the form's browser choices, not engine chips.
  const statuses = await ctx.registry.statusAll(ctx.registry.listedIds());
  sendJson(res, 200, {
    version: inferbenchVersion(),
    cores: availableParallelism(),
    root: ctx.guard.root,
    out: ctx.store.out,
    tokenRequired: ctx.tokenRequired,
    engines: statuses.map((s) => ({ id: s.id, available: s.availability.available, reason: s.availability.available ? null : unavailableText(s) })),
    browsers: await browserChoices(),
    defaults: { batchSizes: DEFAULT_BATCH_SIZES, limit: DEFAULT_LIMIT, warmupBatches: DEFAULT_WARMUP_BATCHES, rounds: DEFAULT_ROUNDS, stop: DEFAULT_STOP_RULE, calibrationRows: DEFAULT_CALIBRATION_ROWS },
  });
}

/** Every entry newest first, with the live progress of the one being measured. */
export async function listRuns(ctx: ApiContext, res: ServerResponse): Promise<void> {
  // The names `inferbench list` prints, so the page labels entries and their best figure the same way; the tabs and settings line its scenario gives.
  const entries = (await ctx.store.list()).map((e) => ({ ...e, modelName: entryModelName(e), headlineText: headlineText(e), ...entryView(e.config) }));
  sendJson(res, 200, { entries, current: ctx.queue.current() });
}

export async function getRun(ctx: ApiContext, res: ServerResponse, id: number): Promise<void> {
  const entry = await requireEntry(ctx, id);
  sendJson(res, 200, { entry: { ...entry, ...entryView(entry.config) }, live: ctx.queue.current()?.id === id ? ctx.queue.current() : null });
}

/** Adds a benchmark of `scenario` to the queue after validating it as its CLI command would. */
export async function addRun(ctx: ApiContext, req: IncomingMessage, res: ServerResponse, scenario: Scenario): Promise<void> {
  const request = await parseStartRequest(scenario, await readJson(req), { guard: ctx.guard, out: ctx.store.out, registry: ctx.registry });
  if (request.compareWith !== null && (await ctx.store.get(request.compareWith)) === null) {
    throw new FieldError('compareWith', `no benchmark with id ${request.compareWith} to compare against`, 'pick one from the list, or none');
  }
  const id = await ctx.store.create({ config: request.config, source: sourceOf(req), state: 'queued', compareWith: request.compareWith });
  ctx.queue.enqueue(id, request.config, sourceOf(req) === 'web' ? 'web' : 'api');
  sendJson(res, 201, { id });
}

/** Queues the same resolved config again, as a new entry linked to the old one. */
export async function rerunRun(ctx: ApiContext, req: IncomingMessage, res: ServerResponse, id: number): Promise<void> {
  const entry = await requireEntry(ctx, id);
  const config = await checkStoredConfig(entry.config, { guard: ctx.guard, out: ctx.store.out, registry: ctx.registry });
  const source = sourceOf(req) === 'web' ? 'web' : 'api';
  const newId = await ctx.store.create({ config, source, state: 'queued', rerunOf: entry.id });
  ctx.queue.enqueue(newId, config, source);
  sendJson(res, 201, { id: newId, rerunOf: entry.id });
}

/** Stops a running benchmark after its current batch, or drops a queued one. */
export async function cancelRun(ctx: ApiContext, res: ServerResponse, id: number): Promise<void> {
  const entry = await requireEntry(ctx, id);
  if (!(await ctx.queue.cancel(id))) throw new HttpError(409, `benchmark ${id} is ${entry.state}, not waiting or running in this dashboard`);
  sendJson(res, 200, { id, cancelled: true });
}

/** Removes the entry and its run folder; a run being measured must be cancelled first. */
export async function deleteRun(ctx: ApiContext, res: ServerResponse, id: number): Promise<void> {
  const entry = await requireEntry(ctx, id);
  if (ctx.queue.isRunning(id) || entry.state === 'running') {
    throw new HttpError(409, `benchmark ${id} is running`, 'cancel it first, then remove it');
  }
  ctx.queue.dequeue(id);
  const removal = await removeEntry(ctx.store, id);
  ctx.queue.emit('event', { type: 'removed', id });
  sendJson(res, 200, { id, removed: true, deletedDir: removal.deletedDir, warnings: removal.warnings });
}

/**
 * Routes `POST /api/<route>`: queues a run of the scenario registered to
 * start there (`runs` for `inferbench run`, `generate`, `load`, or a
 * plug-in's), validated as its CLI command validates it; null otherwise.
 */
export function startRoute(ctx: ApiContext, req: IncomingMessage, res: ServerResponse, parts: readonly string[]): Promise<void> | null {
  const scenario = parts.length === 1 && req.method === 'POST' && parts[0] !== undefined ? scenarioByRoute(parts[0]) : undefined;
  return scenario ? addRun(ctx, req, res, scenario) : null;
}

/** Routes `/api/runs…`; null when the path is not one of them. */
export function runRoute(ctx: ApiContext, req: IncomingMessage, res: ServerResponse, parts: readonly string[]): Promise<void> | null {
  const method = req.method ?? 'GET';
  if (parts.length === 0) return method === 'GET' ? listRuns(ctx, res) : null;
  const id = parseId(parts[0]);
  const action = parts[1];
  if (parts.length === 1 && method === 'GET') return getRun(ctx, res, id);
  if (parts.length === 1 && method === 'DELETE') return deleteRun(ctx, res, id);
  if (parts.length === 2 && method === 'POST' && action === 'rerun') return rerunRun(ctx, req, res, id);
  if (parts.length === 2 && method === 'POST' && action === 'cancel') return cancelRun(ctx, res, id);
  return null;
}
