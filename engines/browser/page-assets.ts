/**
 * Everything the benchmark page loads, from the project's own node_modules
 * (no CDN): the page bundles (built with esbuild on first use, kept in
 * memory for the process), the runtimes' wasm folders and a one-node ONNX
 * graph used to time runtime start-up apart from the model's session build.
 */
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { PageEntry } from './browser-specs.js';

/** Folder of an installed package, found from its package.json (exports maps may hide it, so walk up from its main file). */
function packageDir(name: string, from: string = import.meta.url): string | null {
  let dir = dirname(fileURLToPath(from));
  for (;;) {
    const candidate = join(dir, 'node_modules', name);
    if (existsSync(join(candidate, 'package.json'))) return candidate;
    const parent = dirname(dir);
    if (parent === dir) return null;
    dir = parent;
  }
}

/** transformers.js ships its own onnxruntime-web (a newer one than the top level); its page must use that one's wasm. */
function transformersOrtDir(): string | null {
  const tjs = packageDir('@huggingface/transformers');
  if (!tjs) return null;
  const nested = join(tjs, 'node_modules', 'onnxruntime-web');
  return existsSync(join(nested, 'package.json')) ? nested : packageDir('onnxruntime-web');
}

/** URL prefix → folder served under it. The launcher serves exactly these, plus the bundles and the model. */
export function assetRoutes(): Record<string, string> {
  const routes: Record<string, string> = {};
  const ort = packageDir('onnxruntime-web');
  if (ort) routes['/ort/'] = join(ort, 'dist');
  const tjsOrt = transformersOrtDir();
  if (tjsOrt) routes['/tjs-ort/'] = join(tjsOrt, 'dist');
  const tfWasm = packageDir('@tensorflow/tfjs-backend-wasm');
  if (tfWasm) routes['/tfjs-wasm/'] = join(tfWasm, 'dist');
  return routes;
}

/** Asset URLs each runtime is told (relative to the page origin). */
export function assetUrls(origin: string, runtime: 'ort' | 'tfjs' | 'transformers', backend: string): Record<string, string> {
  if (runtime === 'ort') return { ortModule: `${origin}/ort/${backend === 'webgpu' ? 'ort.webgpu.min.mjs' : 'ort.wasm.min.mjs'}`, ortWasm: `${origin}/ort/` };
  if (runtime === 'tfjs') return { tfjsWasm: `${origin}/tfjs-wasm/` };
  return { ortWasm: `${origin}/tjs-ort/` };
}

/** Compiled page entry (dist/engines/browser/page/<entry>.js). */
export function entryFile(entry: PageEntry): string {
  return fileURLToPath(new URL(`./page/${entry}.js`, import.meta.url));
}

/** What is missing for `entry` to be bundled here, or null when everything is present. */
export function missingAssets(entry: PageEntry, packages: readonly string[]): string | null {
  if (!existsSync(entryFile(entry))) return `page script ${entryFile(entry)} is missing (build inferbench: npm run build)`;
  for (const p of [...packages, 'esbuild', 'playwright-core']) {
    if (!packageDir(p)) return `${p} is not installed`;
  }
  return null;
}

const bundles = new Map<PageEntry, Promise<string>>();

/**
 * The page script for `entry`, bundled for the browser once per process.
 * The tfjs translator imports node:fs and node:path for files on disk; the
 * page never reads files (it fetches bytes), so those resolve to stubs that
 * throw if ever called.
 */
export function pageBundle(entry: PageEntry): Promise<string> {
  let pending = bundles.get(entry);
  if (!pending) {
    pending = (async () => {
      const esbuild = await import('esbuild');
      const result = await esbuild.build({
        entryPoints: [entryFile(entry)],
        bundle: true,
        format: 'esm',
        platform: 'browser',
        target: 'chrome120',
        write: false,
        logLevel: 'silent',
        define: { 'process.env.NODE_ENV': '"production"' },
        plugins: [
          {
            name: 'node-builtins-stub',
            setup(build) {
              build.onResolve({ filter: /^node:/ }, (args) => ({ path: args.path, namespace: 'node-stub' }));
              build.onLoad({ filter: /.*/, namespace: 'node-stub' }, (args) => ({
                contents: `const no = () => { throw new Error(${JSON.stringify(`${args.path} is not available in the browser page`)}); };
export const readFileSync = no, readFile = no, dirname = no, resolve = no, join = no; export default {};`,
                loader: 'js',
              }));
            },
          },
        ],
      });
      const file = result.outputFiles[0];
      if (!file) throw new Error(`esbuild produced no output for ${entry}`);
      return file.text;
    })();
    bundles.set(entry, pending);
    // A failed build is not cached: the next load tries again and reports its own error.
    pending.catch(() => bundles.delete(entry));
  }
  return pending;
}

/** The HTML of the benchmark page: it only loads the bundle, which installs `globalThis.__inferbench`. */
/**
 * Records the page's console lines and uncaught errors in
 * `globalThis.__inferbenchLog` (bounded), for drivers whose protocol reports
 * neither (WebKit's W3C WebDriver): they drain it after each evaluate.
 */
const CONSOLE_HOOK =
  "(()=>{const l=globalThis.__inferbenchLog=[];const keep=(kind,text)=>{if(l.length<10000)l.push({kind,text:String(text)})};" +
  "for(const m of ['log','info','warn','error','debug']){const o=console[m].bind(console);console[m]=(...a)=>{keep('console',a.map(String).join(' '));o(...a)}}" +
  "addEventListener('error',(e)=>keep('error',e.message));addEventListener('unhandledrejection',(e)=>keep('error',(e.reason&&e.reason.message)||e.reason))})()";

export function pageHtml(entry: PageEntry): string {
  return `<!doctype html><html><head><meta charset="utf-8"><title>inferbench ${entry}</title><script>${CONSOLE_HOOK}</script></head><body><script type="module" src="/bundle/${entry}.js"></script></body></html>`;
}

let warmup: Uint8Array | undefined;

/**
 * A one-node ONNX graph (Identity on a float [1]): creating a session on it
 * starts the runtime without the model. The ONNX encoder is imported here,
 * not at the top, so the CLI does not load protobufjs for runs without a
 * browser engine.
 */
export async function warmupOnnx(): Promise<Uint8Array> {
  if (warmup) return warmup;
  const { encodeModel } = await import('../../src/core/onnx/onnx-proto.js');
  const info = (name: string) => ({ name, type: { tensorType: { elemType: 1, shape: { dim: [{ dimValue: 1 }] } } } });
  warmup = encodeModel({
    irVersion: 7,
    opsetImport: [{ domain: '', version: 13 }],
    graph: { name: 'warmup', node: [{ input: ['x'], output: ['y'], opType: 'Identity' }], input: [info('x')], output: [info('y')] },
  });
  return warmup;
}
