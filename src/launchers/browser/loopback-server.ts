/**
 * The loopback HTTP server a benchmark page comes from. Every response
 * carries COOP/COEP (and CORP), so the page is cross-origin isolated:
 * SharedArrayBuffer exists and wasm runtimes can start threads. It serves
 * only what it was given: fixed asset folders from node_modules, the page
 * bundles, and the model files registered for this open group.
 */
import { createReadStream, statSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { extname, resolve, sep } from 'node:path';

const TYPES: Readonly<Record<string, string>> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.wasm': 'application/wasm',
  '.json': 'application/json',
  '.onnx': 'application/octet-stream',
  '.txt': 'text/plain; charset=utf-8',
};

export const ISOLATION_HEADERS: Readonly<Record<string, string>> = {
  'cross-origin-opener-policy': 'same-origin',
  'cross-origin-embedder-policy': 'require-corp',
  'cross-origin-resource-policy': 'same-origin',
  'cache-control': 'no-store',
};

/** Dynamic content: a path → body (the page HTML, bundles, the warm-up graph). */
export type Generated = (path: string) => Promise<{ readonly body: string | Uint8Array; readonly type: string } | null>;

export interface LoopbackServer {
  readonly origin: string;
  /** Serves one file at a fresh URL. */
  addFile(path: string): string;
  /** Serves a folder at `<origin>/files/<n>/`. */
  addFolder(dir: string): { root: string; name: string };
  close(): Promise<void>;
}

/** A file path under `root` for a URL remainder, or null for anything that escapes it. */
function within(root: string, rest: string): string | null {
  const path = resolve(root, decodeURIComponent(rest));
  return path === root || path.startsWith(root + sep) ? path : null;
}

export async function startLoopbackServer(folders: Readonly<Record<string, string>>, generated: Generated): Promise<LoopbackServer> {
  const files = new Map<string, string>();
  const dirs = new Map<string, string>();
  let next = 0;

  function sendFile(res: ServerResponse, path: string): void {
    let size: number;
    try {
      const st = statSync(path);
      if (!st.isFile()) throw new Error('not a file');
      size = st.size;
    } catch {
      res.writeHead(404, ISOLATION_HEADERS).end();
      return;
    }
    res.writeHead(200, { ...ISOLATION_HEADERS, 'content-type': TYPES[extname(path)] ?? 'application/octet-stream', 'content-length': String(size) });
    createReadStream(path).pipe(res);
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const path = new URL(req.url ?? '/', 'http://127.0.0.1').pathname;
    const made = await generated(path);
    if (made) {
      res.writeHead(200, { ...ISOLATION_HEADERS, 'content-type': made.type });
      res.end(made.body);
      return;
    }
    const file = files.get(path);
    if (file) return sendFile(res, file);
    const m = /^\/files\/([^/]+)\/(.+)$/.exec(path);
    const dir = m ? dirs.get(m[1] ?? '') : undefined;
    if (m && dir) {
      const target = within(dir, m[2] ?? '');
      if (target) return sendFile(res, target);
    }
    for (const [prefix, root] of Object.entries(folders)) {
      if (!path.startsWith(prefix)) continue;
      const target = within(root, path.slice(prefix.length));
      if (target) return sendFile(res, target);
    }
    res.writeHead(404, ISOLATION_HEADERS).end();
  }

  const server = createServer((req, res) => {
    handle(req, res).catch((err: unknown) => {
      if (!res.headersSent) res.writeHead(500, ISOLATION_HEADERS);
      res.end(String(err));
    });
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    origin,
    addFile(path) {
      const url = `/model/${next++}/${encodeURIComponent(path.split(sep).pop() ?? 'file')}`;
      files.set(url, path);
      return `${origin}${url}`;
    },
    addFolder(dir) {
      const name = String(next++);
      dirs.set(name, resolve(dir));
      return { root: `${origin}/files/`, name };
    },
    close: () =>
      new Promise<void>((done) => {
        server.closeAllConnections();
        server.close(() => done());
      }),
  };
}
