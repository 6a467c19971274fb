/**
 * One colour per engine, everywhere: a frozen table from engine id to
 * colour, read by every chart spec (PNG and dashboard alike), so onnx-cpu
 * is the same blue in comparison.png, batch-scaling.png, the load charts
 * and every dashboard view, in every run, whatever other engines ran
 * beside it. Before, each chart handed its own domain to vega's tableau10
 * scheme, so an engine's colour was its index in that chart's list: orange
 * was onnx-cpu in one chart and onnx-wasm in the next.
 *
 * A variant of one engine (a thread count, a host, a precision: a label
 * such as `onnx-cpu (2 threads)`) gets a shade of its engine's colour,
 * never another engine's colour. Families share a hue range (onnx blues,
 * tfjs reds and oranges, transformers.js greens, browser rows lighter).
 */

/** Engine id → colour. Frozen: an engine's colour never changes between runs or versions. */
export const ENGINE_COLORS: Readonly<Record<string, string>> = Object.freeze({
  'onnx-cpu': '#1f77b4',
  'onnx-wasm': '#17becf',
  'onnx-webgpu': '#393b79',
  'onnx-cuda': '#6b6ecf',
  'onnx-tensorrt': '#9c9ede',
  'tfjs-node': '#d62728',
  'tfjs-node-gpu': '#ff9896',
  'tfjs-node-saved-model': '#ad494a',
  'tfjs-node-gpu-saved-model': '#e7969c',
  'tfjs-node-graph-model': '#843c39',
  'tfjs-node-gpu-graph-model': '#d6616b',
  'tfjs-wasm': '#ff7f0e',
  'tfjs-wasm-graph-model': '#bcbd22',
  'tfjs-cpu': '#8c564b',
  'tfjs-cpu-graph-model': '#c49c94',
  'tfjs-webgpu': '#e377c2',
  'tfjs-webgpu-graph-model': '#f7b6d2',
  'transformers-js': '#2ca02c',
  'transformers-js-cuda': '#98df8a',
  'transformers-js-webgpu': '#637939',
  'browser-onnx-wasm': '#9edae5',
  'browser-onnx-webgpu': '#5254a3',
  'browser-tfjs-wasm': '#ffbb78',
  'browser-tfjs-wasm-graph-model': '#dbdb8d',
  'browser-tfjs-webgl': '#9467bd',
  'browser-tfjs-webgl-graph-model': '#c5b0d5',
  'browser-tfjs-webgpu': '#de9ed6',
  'browser-tfjs-webgpu-graph-model': '#ce6dbd',
  'browser-transformers-js': '#74c476',
  'browser-transformers-js-webgpu': '#31a354',
});

/** For an engine the table does not know (a plug-in, a test's mock): picked by a hash of its id, so it too is the same in every run. */
const SPARE_COLORS: readonly string[] = Object.freeze(['#7f7f7f', '#525252', '#a55194', '#e6550d', '#3182bd', '#756bb1', '#636363', '#b5cf6b']);

/** The engine id a chart label starts with: `onnx-cpu (2 threads) @ w1` → `onnx-cpu`; the longest known id wins (tfjs-wasm-graph-model, not tfjs-wasm). */
export function engineOfLabel(label: string): string {
  const known = Object.keys(ENGINE_COLORS)
    .filter((id) => label === id || label.startsWith(`${id} `) || label.startsWith(`${id}·`))
    .sort((a, b) => b.length - a.length)[0];
  return known ?? label.split(/[\s@·(]/u)[0] ?? label;
}

/** The colour of one engine id. */
export function engineColor(engine: string): string {
  const known = ENGINE_COLORS[engine];
  if (known !== undefined) return known;
  let hash = 0;
  for (const ch of engine) hash = (hash * 31 + (ch.codePointAt(0) ?? 0)) >>> 0;
  return SPARE_COLORS[hash % SPARE_COLORS.length] ?? '#7f7f7f';
}

/** `hex` mixed toward white (amount > 0) or black (amount < 0), |amount| ≤ 1. */
function shade(hex: string, amount: number): string {
  const n = Number.parseInt(hex.slice(1), 16);
  const channel = (shift: number): string => {
    const c = (n >> shift) & 0xff;
    const mixed = amount >= 0 ? c + (255 - c) * amount : c * (1 + amount);
    return Math.round(mixed).toString(16).padStart(2, '0');
  };
  return `#${channel(16)}${channel(8)}${channel(0)}`;
}

/** Shades for the second, third… variant of one engine: darker, lighter, darker still… never far enough to read as another hue. */
const SHADE_STEPS: readonly number[] = Object.freeze([0, -0.3, 0.35, -0.5, 0.55, -0.15, 0.2]);

/**
 * The colour of every label of a chart's legend: each engine's own colour,
 * its variants (labels that share the engine) in shades of it, in the order
 * the labels come. `{ domain, range }` is a vega-lite scale as is.
 */
export function colorScale(labels: readonly string[]): { readonly domain: string[]; readonly range: string[] } {
  const seen = new Map<string, number>();
  const range = labels.map((label) => {
    const engine = engineOfLabel(label);
    const index = seen.get(engine) ?? 0;
    seen.set(engine, index + 1);
    return shade(engineColor(engine), SHADE_STEPS[index % SHADE_STEPS.length] ?? 0);
  });
  return { domain: [...labels], range };
}

/**
 * Like colorScale, but each engine's labels ramp from a light to a dark
 * shade of its colour in the order they come (a load CDF's rates, lowest
 * first, so darker reads as more load); an engine with one label keeps its
 * own colour.
 */
export function rampScale(labels: readonly string[]): { readonly domain: string[]; readonly range: string[] } {
  const byEngine = new Map<string, string[]>();
  for (const label of labels) {
    const engine = engineOfLabel(label);
    byEngine.set(engine, [...(byEngine.get(engine) ?? []), label]);
  }
  const range = labels.map((label) => {
    const engine = engineOfLabel(label);
    const same = byEngine.get(engine) ?? [label];
    if (same.length === 1) return engineColor(engine);
    const t = same.indexOf(label) / (same.length - 1);
    return shade(engineColor(engine), 0.5 - t * 0.95);
  });
  return { domain: [...labels], range };
}

/** Runs A and B of a comparison chart: greys, no engine's colour, so run B is never read as onnx-cpu's blue. */
export const RUN_COLORS: readonly [string, string] = Object.freeze(['#9e9e9e', '#212121']) as readonly [string, string];
