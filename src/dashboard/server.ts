import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { defaultRegistry } from '../../engines/registry.js';
import { type EngineRegistry } from '../core/engine-registry.js';
import { UserError } from '../core/errors.js';
import { HistoryStore } from '../runs/history/history-store.js';
import { getInfo, runRoute, startRoute, type ApiContext } from './api-routes.js';
import { HttpError, sendError } from './http-util.js';
import { PathGuard } from './path-guard.js';
import { RunQueue } from './run-queue.js';
import { accessToken, crossSiteReason, DEFAULT_HOST, tokenMatches } from './security.js';
import { openEventStream } from './event-stream.js';
import { StaticFiles } from './static-files.js';
import { viewRoute } from './view-routes.js';
import { recheckStoredPaths } from './run-request.js';

/** Port used when none is given. */
import { DEFAULT_PORT } from './dashboard-port.js';
export { DEFAULT_PORT } from './dashboard-port.js';

/** How to start a dashboard. */
export interface DashboardOptions {
  /** Output folder: history.duckdb and the run folders. */
  readonly out: string;
  readonly host?: string;
  /** 0 picks a free port. */
  readonly port?: number;
  /** Folder model and dataset paths are resolved in and confined to. */
  readonly root?: string;
  /** More folders they may point into. */
  readonly allow?: readonly string[];
  /** A fixed token instead of a generated one (only used off loopback unless given). */
  readonly token?: string;
  readonly registry?: EngineRegistry;
  readonly log?: (message: string) => void;
}

/** A running dashboard. */
export interface Dashboard {
  readonly url: string;
  readonly host: string;
  readonly port: number;
  /** Null on loopback without --token: no token is needed. */
  readonly token: string | null;
  /** Entries found interrupted (their process had died) when the store was opened. */
  readonly recovered: readonly number[];
  readonly queue: RunQueue;
  readonly store: HistoryStore;
  /** Stops the run in progress (it ends `interrupted`), then the server. */
  close(): Promise<void>;
}

/**
 * Starts `inferbench serve`: a JSON API under `/api/`, the page and its
 * locally served scripts, and a single-run queue. Loopback by default; off
 * loopback every API call needs the token. Opening the store first marks
 * runs of a dead dashboard as interrupted.
 */
export async function startDashboard(options: DashboardOptions): Promise<Dashboard> {
  const host = options.host ?? DEFAULT_HOST;
  const token = accessToken(host, options.token);
  const log = options.log ?? ((m: string) => process.stderr.write(`inferbench serve: ${m}\n`));
  const store = new HistoryStore(options.out);
  const recovered = await store.open();
  const registry = options.registry ?? defaultRegistry;
  const guard = new PathGuard(options.root ?? process.cwd(), options.allow ?? []);
  // Paths are checked again as each run starts: a folder may have become a symlink to outside --root since it was queued.
  const queue = new RunQueue(store, registry, undefined, (config) => recheckStoredPaths(config, guard));
  queue.on('event', (e) => {
    if (e.type === 'warning') log(e.message);
    if (e.type === 'finished' && e.state === 'failed') log(`benchmark ${e.id} failed: ${e.error ?? ''}`);
  });
  const ctx: ApiContext = { store, queue, guard, registry, tokenRequired: token !== null };
  const files = new StaticFiles();
  let listening = { host, port: 0 };

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const url = new URL(req.url ?? '/', 'http://dashboard.invalid');
    const crossSite = crossSiteReason(req, listening);
    if (crossSite) throw new HttpError(403, `refused: ${crossSite}`);
    if (!url.pathname.startsWith('/api/')) {
      if ((req.method === 'GET' || req.method === 'HEAD') && files.serve(url.pathname, res)) return;
      throw new HttpError(404, `no page ${url.pathname}`);
    }
    if (!tokenMatches(req, url, token)) {
      throw new HttpError(401, 'this dashboard needs its access token', 'open the URL `inferbench serve` printed (it carries ?token=), or send Authorization: Bearer <token>');
    }
    const parts = url.pathname.slice('/api/'.length).split('/').filter((p) => p !== '');
    const [head, ...rest] = parts;
    let done: Promise<void> | null = null;
    if (head === 'info' && rest.length === 0 && req.method === 'GET') done = getInfo(ctx, res);
    else if (head === 'events' && rest.length === 0 && req.method === 'GET') done = openEventStream(req, res, queue);
    else done = startRoute(ctx, req, res, parts) ?? (head === 'runs' ? runRoute(ctx, req, res, rest) : null) ?? viewRoute(ctx, req, res, parts, url);
    if (done === null) throw new HttpError(404, `no API ${req.method ?? 'GET'} ${url.pathname}`);
    await done;
  };

  const server: Server = createServer((req, res) => {
    handle(req, res).catch((err: unknown) => {
      if (res.headersSent) {
        res.destroy();
        return;
      }
      sendError(res, err, log);
    });
  });
  server.on('clientError', (_err, socket) => socket.destroy());
  await new Promise<void>((resolve, reject) => {
    server.once('error', (err: NodeJS.ErrnoException) => {
      const where = `${host}:${options.port ?? DEFAULT_PORT}`;
      if (err.code === 'EADDRINUSE') reject(new UserError(`port ${options.port ?? DEFAULT_PORT} is already in use on ${host}`, 'pass --port with another port, or --port 0 for a free one'));
      else if (err.code === 'EADDRNOTAVAIL' || err.code === 'ENOTFOUND') reject(new UserError(`cannot listen on ${where}: no such address on this machine`, 'pass --host an address of this machine, or leave it out for 127.0.0.1'));
      else if (err.code === 'EACCES') reject(new UserError(`not allowed to listen on ${where}`, 'use a port above 1023'));
      else reject(err);
    });
    server.listen(options.port ?? DEFAULT_PORT, host, () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  listening = { host, port };
  const shownHost = host.includes(':') ? `[${host}]` : host;
  const base = `http://${shownHost}:${port}/`;
  return {
    url: base,
    host,
    port,
    token,
    recovered,
    queue,
    store,
    async close() {
      await queue.stop();
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
    },
  };
}
