/**
 * The one table the offline pack is built from: which npm packages (and
 * which of their files) each engine id needs at run time on Linux x64.
 * Everything else in the CLI is bundled by esbuild; these packages stay
 * `node_modules` copies because they load native addons or data files by
 * path, or because two copies of them (one bundled, one loaded by another
 * package) would not share state (tfjs-core's backend registry,
 * onnxruntime-common's Tensor class).
 *
 * Frozen, and checked against the engine registry by a test, so a new
 * engine cannot be forgotten: it gets a row here, or a reason why it
 * cannot be packed.
 */

/** How one package is copied into the pack. */
export interface PackPackage {
  /**
   * Path under `node_modules/`, as npm installed it (a nested copy such as
   * `@huggingface/transformers/node_modules/onnxruntime-common` is one too).
   */
  readonly path: string;
  /** Path prefixes inside the package to keep (package.json always is); absent: every file, less the generic drops. */
  readonly keep?: readonly string[];
  /** Replace the package with a stub module (the package is imported but never used by inferbench). */
  readonly stub?: string;
}

/** A part of the pack: the packages it needs, copied whole or in part. */
export interface PackPart {
  readonly packages: readonly PackPackage[];
}

const ORT_NODE: readonly PackPackage[] = [
  // dist/ is the JS; only this platform's binding and libonnxruntime (the WebGPU EP is inside it).
  { path: 'onnxruntime-node', keep: ['dist/', 'bin/napi-v6/linux/x64/'] },
  { path: 'onnxruntime-common', keep: ['dist/cjs/', 'dist/esm/'] },
];

const TRANSFORMERS: readonly PackPackage[] = [
  ...ORT_NODE,
  // Node's entry only: it has onnxruntime-web's WebGPU bundle inlined for browsers, and in Node it runs on onnxruntime-node.
  { path: '@huggingface/transformers', keep: ['dist/transformers.node.mjs'] },
  // The Node entry imports this nested copy (onnxruntime-web's 1.31 dev build hoisted beside it), not the top-level one.
  { path: '@huggingface/transformers/node_modules/onnxruntime-common', keep: ['dist/cjs/', 'dist/esm/'] },
  // Imported at the top of transformers.js for image inputs, which text classification never uses; libvips is 18 MB.
  {
    path: 'sharp',
    stub: "module.exports = function sharp() { throw new Error('sharp (image inputs) is left out of this inferbench offline pack'); };\n",
  },
];

const TFJS_CORE: readonly PackPackage[] = [
  { path: '@tensorflow/tfjs-core', keep: ['dist/tf-core.node.js'] },
  { path: 'seedrandom' },
  { path: 'node-fetch' },
  { path: 'whatwg-url' },
  { path: 'tr46' },
  { path: 'webidl-conversions' },
  { path: '@tensorflow/tfjs-backend-cpu', keep: ['dist/tf-backend-cpu.node.js'] },
];

const TFJS_CONVERTER: PackPackage = { path: '@tensorflow/tfjs-converter', keep: ['dist/tf-converter.node.js'] };

const TFJS_WASM: readonly PackPackage[] = [
  ...TFJS_CORE,
  { path: '@tensorflow/tfjs-backend-wasm', keep: ['dist/tf-backend-wasm.node.js', 'dist/tfjs-backend-wasm.wasm', 'dist/tfjs-backend-wasm-simd.wasm', 'dist/tfjs-backend-wasm-threaded-simd.wasm'] },
];

// Dawn's dawn.node: the linux-x64 binary only. The ORT WebGPU engines need it too: their adapter is read through it (engines/webgpu/dawn-adapter.ts).
const DAWN_NODE: PackPackage = { path: 'webgpu', keep: ['index.js', 'dist/linux-x64/'] };

const TFJS_WEBGPU: readonly PackPackage[] = [...TFJS_CORE, { path: '@tensorflow/tfjs-backend-webgpu', keep: ['dist/tf-backend-webgpu.node.js'] }, DAWN_NODE];

const ORT_WEB: readonly PackPackage[] = [
  { path: 'onnxruntime-common', keep: ['dist/cjs/', 'dist/esm/'] },
  { path: 'onnxruntime-web', keep: ['dist/ort.node.min.js', 'dist/ort.node.min.mjs', 'dist/ort-wasm-simd-threaded.mjs', 'dist/ort-wasm-simd-threaded.wasm'] },
];

/** Engine id → the packages it needs in the pack. */
export const PACK_ENGINES: Readonly<Record<string, PackPart>> = Object.freeze({
  'onnx-cpu': { packages: ORT_NODE },
  'onnx-cuda': { packages: ORT_NODE },
  'onnx-tensorrt': { packages: ORT_NODE },
  'onnx-webgpu': { packages: [...ORT_NODE, DAWN_NODE] },
  'onnx-wasm': { packages: ORT_WEB },
  'tfjs-cpu': { packages: TFJS_CORE },
  'tfjs-cpu-graph-model': { packages: [...TFJS_CORE, TFJS_CONVERTER] },
  'tfjs-wasm': { packages: TFJS_WASM },
  'tfjs-wasm-graph-model': { packages: [...TFJS_WASM, TFJS_CONVERTER] },
  'tfjs-webgpu': { packages: TFJS_WEBGPU },
  'tfjs-webgpu-graph-model': { packages: [...TFJS_WEBGPU, TFJS_CONVERTER] },
  'transformers-js': { packages: TRANSFORMERS },
  'transformers-js-cuda': { packages: TRANSFORMERS },
  'transformers-js-webgpu': { packages: [...TRANSFORMERS, DAWN_NODE] },
});

const NEEDS_CHROMIUM = 'browser engines need Chromium and playwright-core on the host, which the pack does not carry';
const NEEDS_LIBTENSORFLOW = "tfjs-node's libtensorflow is built for one host (npm run setup:tfjs-node) and is hundreds of MB";

/** Engine ids (or id prefixes ending in `-`) that cannot be packed, with the reason. */
export const UNPACKABLE: Readonly<Record<string, string>> = Object.freeze({
  'browser-': NEEDS_CHROMIUM,
  'tfjs-node': NEEDS_LIBTENSORFLOW,
  'tfjs-node-': NEEDS_LIBTENSORFLOW,
});

/** Why `id` cannot be packed, or null when it can (or is unknown: see `PACK_ENGINES`). */
export function unpackableReason(id: string): string | null {
  if (id in PACK_ENGINES) return null;
  for (const [key, reason] of Object.entries(UNPACKABLE)) {
    if (key.endsWith('-') ? id.startsWith(key) : id === key) return reason;
  }
  return null;
}

/**
 * Parts every pack holds: tfjs-core and its CPU backend (the CLI imports
 * them at load time: the tfjs engines' modules and the exporter's rank
 * probe), the PNG renderer's native binding and the dashboard's chart scripts.
 */
export const ALWAYS: PackPart = {
  packages: [
    ...TFJS_CORE,
    { path: '@resvg/resvg-js', keep: ['index.js', 'js-binding.js'] },
    { path: '@resvg/resvg-js-linux-x64-gnu' },
    // The dashboard serves these browser builds (src/dashboard/static-files.ts finds them from each package's entry file).
    { path: 'vega', keep: ['build/vega.module.js', 'build/vega.min.js'] },
    { path: 'vega-lite', keep: ['build/index.js', 'build/vega-lite.min.js'] },
    { path: 'vega-embed', keep: ['build/embed.js', 'build/vega-embed.min.js'] },
  ],
};

/** The benchmark history: DuckDB's native library, in the pack only with `--with-history`. */
export const HISTORY: PackPart & { readonly part: string; readonly effect: string } = {
  part: 'the DuckDB history (@duckdb/node-api)',
  effect: 'runs are not recorded in the history (inferbench list, show, rerun, compare by id)',
  packages: [{ path: '@duckdb/node-api' }, { path: '@duckdb/node-bindings' }, { path: '@duckdb/node-bindings-linux-x64' }],
};

/**
 * Packages the bundle leaves external but no pack carries, with what is
 * lost: they are imported only by commands or engines the pack does not
 * serve, and importing them there fails with the note.
 */
export const NEVER: readonly { readonly part: string; readonly packages: readonly string[]; readonly effect: string }[] = [
  { part: 'the browser engines (playwright-core, puppeteer-core, esbuild)', packages: ['playwright-core', 'puppeteer-core', 'esbuild'], effect: 'browser-* engines are unavailable' },
  { part: "tfjs's layers API (@tensorflow/tfjs)", packages: ['@tensorflow/tfjs'], effect: 'inferbench train on tfjs engines fails' },
  { part: 'tfjs-node (@tensorflow/tfjs-node, -gpu)', packages: ['@tensorflow/tfjs-node', '@tensorflow/tfjs-node-gpu'], effect: 'tfjs-node engines are unavailable' },
];

/** Every package name the bundle must leave external (packed or not): the pack's node_modules or nothing. */
export const EXTERNAL: readonly string[] = [
  'onnxruntime-node',
  'onnxruntime-common',
  'onnxruntime-web',
  '@huggingface/transformers',
  '@tensorflow/*',
  'webgpu',
  'sharp',
  '@resvg/resvg-js',
  '@duckdb/node-api',
  'playwright-core',
  'puppeteer-core',
  'esbuild',
];
