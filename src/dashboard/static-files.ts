import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { ServerResponse } from 'node:http';
import { packageRoot } from '../core/package-info.js';
import { sendBytes } from './http-util.js';

const require = createRequire(import.meta.url);

const TYPES: Readonly<Record<string, string>> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
};

/**
 * Only this origin's files run. Vega compiles its expressions with
 * `new Function`, hence 'unsafe-eval'; vega-embed injects a style element,
 * hence inline styles. Nothing is loaded from a CDN.
 */
const CSP = "default-src 'self'; script-src 'self' 'unsafe-eval'; style-src 'self' 'unsafe-inline'; img-src 'self' data: blob:; connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'";

/** Folder of an installed package (found from its entry point, since these packages do not export package.json). */
function packageDir(name: string): string {
  let dir = dirname(require.resolve(name));
  for (;;) {
    const manifest = join(dir, 'package.json');
    if (existsSync(manifest) && (JSON.parse(readFileSync(manifest, 'utf8')) as { name?: string }).name === name) return dir;
    const parent = dirname(dir);
    if (parent === dir) throw new Error(`cannot find the folder of ${name}`);
    dir = parent;
  }
}

/** The browser builds of vega, vega-lite and vega-embed, served from node_modules. */
const VENDOR: Readonly<Record<string, () => string>> = {
  '/vendor/vega.min.js': () => join(packageDir('vega'), 'build', 'vega.min.js'),
  '/vendor/vega-lite.min.js': () => join(packageDir('vega-lite'), 'build', 'vega-lite.min.js'),
  '/vendor/vega-embed.min.js': () => join(packageDir('vega-embed'), 'build', 'vega-embed.min.js'),
};

/** The page's own files, in `web/` at the package root. */
const PAGE_FILES = ['dashboard.html', 'app.js', 'app-style.css', 'api.js', 'form.js', 'views.js', 'panels.js', 'format.js', 'form-errors.js', 'toasts.js', 'icon.svg'] as const;

/**
 * A fixed table of files, read once and kept in memory: no path from the
 * URL ever reaches the file system, so there is nothing to traverse.
 */
export class StaticFiles {
  private readonly cache = new Map<string, { type: string; data: Buffer }>();
  private readonly table: Map<string, string>;

  constructor(webDir: string = join(packageRoot(), 'src', 'dashboard', 'web')) {
    // The page is dashboard.html (no two files share a base name); `/` and the older `/index.html` both serve it.
    this.table = new Map<string, string>([['/', join(webDir, 'dashboard.html')], ['/index.html', join(webDir, 'dashboard.html')]]);
    for (const name of PAGE_FILES) this.table.set(`/${name}`, join(webDir, name));
    for (const [route, file] of Object.entries(VENDOR)) this.table.set(route, file());
  }

  /** Serves `pathname` when it is one of the files; false otherwise. */
  serve(pathname: string, res: ServerResponse): boolean {
    const file = this.table.get(pathname);
    if (file === undefined || !existsSync(file)) return false;
    let entry = this.cache.get(pathname);
    if (!entry) {
      const ext = /\.[a-z]+$/.exec(file)?.[0] ?? '';
      entry = { type: TYPES[ext] ?? 'application/octet-stream', data: readFileSync(file) };
      this.cache.set(pathname, entry);
    }
    sendBytes(res, entry.type, entry.data, { 'content-security-policy': CSP });
    return true;
  }
}
