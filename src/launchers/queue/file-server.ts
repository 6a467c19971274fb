/**
 * The coordinator's model and dataset server (`--serve-models HOST:PORT`):
 * read-only, GET and HEAD only, and only the files of this run, each at
 * `/files/<sha256>`. Nothing is listed and no path is ever read from a
 * request, so it cannot serve anything else on the coordinator's disk.
 */
import { createReadStream } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { UserError } from '../../core/errors.js';

export interface FileServer {
  /** `http://HOST:PORT` as workers reach it. */
  readonly url: string;
  /** Adds files (by sha256) to what is served. */
  add(files: ReadonlyMap<string, string>): void;
  close(): Promise<void>;
}

/** Parses `HOST:PORT` of `--serve-models`. */
export function parseServeAddress(text: string): { host: string; port: number } {
  const match = /^(\[[^\]]+\]|[^:]+):(\d+)$/.exec(text);
  const port = match ? Number(match[2]) : NaN;
  if (!match || !Number.isInteger(port) || port < 0 || port > 65535) {
    throw new UserError(`--serve-models must be HOST:PORT, got "${text}"`, 'pass the address workers can reach this machine on, e.g. --serve-models 10.0.0.5:8642');
  }
  return { host: match[1]!.replace(/^\[|\]$/g, ''), port };
}

/** Starts the server; port 0 picks a free one (tests). */
export async function startFileServer(address: string): Promise<FileServer> {
  const { host, port } = parseServeAddress(address);
  const served = new Map<string, string>();
  const server: Server = createServer((req, res) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.writeHead(405, { allow: 'GET, HEAD' }).end();
      return;
    }
    const match = /^\/files\/([0-9a-f]{64})$/.exec(req.url ?? '');
    const path = match ? served.get(match[1]!) : undefined;
    if (!path) {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, { 'content-type': 'application/octet-stream', 'cache-control': 'immutable' });
    if (req.method === 'HEAD') {
      res.end();
      return;
    }
    createReadStream(path)
      .on('error', () => res.destroy())
      .pipe(res);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', (err) => reject(new UserError(`cannot serve models on ${address}: ${err.message}`, 'pass --serve-models a free HOST:PORT of this machine that workers can reach')));
    server.listen(port, host, () => resolve());
  });
  const bound = server.address();
  const actualPort = typeof bound === 'object' && bound ? bound.port : port;
  const urlHost = host.includes(':') ? `[${host}]` : host;
  return {
    url: `http://${urlHost}:${actualPort}`,
    add: (files) => files.forEach((path, sha) => served.set(sha, path)),
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
