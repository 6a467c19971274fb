/**
 * The browser engines (see browser-specs.ts), each in one browser
 * (browser-variants.ts). They run only through the browser launcher, which
 * starts the browser and the loopback server and gives them a page
 * (`openIn`); `open` alone says so. Everything a row records
 * about the page is read back in it, never assumed from what was asked.
 */
import { basename, dirname } from 'node:path';
import type { Availability, ResolvedSessionOptions } from '../../src/core/engine.js';
import { declaredBy, formatOf } from '../engine-target.js';
import type { EngineSession, Precision } from '../../src/core/engine-session.js';
import { CellSkip } from '../../src/core/errors.js';
import { installedVersion } from '../../src/core/package-info.js';
import { pipelineTarget } from '../transformers-js/session-readback.js';
import { pipelineTask } from '../transformers-js/pipeline-task.js';
import { BrowserSession } from './browser-session.js';
import type { BrowserEngineSpec } from './browser-specs.js';
import { pageCapabilities } from './capability-probe.js';
import { playwright } from './chromium.js';
import { driverFor } from './browser-drivers.js';
import { BROWSER_VARIANTS, browserEngineId, type BrowserVariant } from './browser-variants.js';
import { browserCapabilities } from './browser-capabilities.js';
import { threadNotes } from './thread-notes.js';
import { describeAdapter } from '../../src/core/gpu-adapter.js';
import { availableParallelism } from 'node:os';
import { createRequire } from 'node:module';
import { assetUrls, missingAssets } from './page-assets.js';
import type { BrowserEngine, PageHost } from './page-host.js';
import type { PageOpenRequest } from './page/protocol.js';

/** URL path of the one-node warm-up graph the launcher serves (page-assets.ts `warmupOnnx`). */
export const WARMUP_PATH = '/warmup.onnx';

const MEMORY_ERROR = /out of memory|could not allocate|allocation failed|Array buffer allocation|memory access out of bounds|RangeError: WebAssembly\.Memory|Aborted\(\)/i;

/** An open failure as a cell reason: one that reads like an allocation failure says the model did not fit. */
export function openFailure(err: unknown): Error {
  const message = err instanceof Error ? err.message : String(err);
  if (MEMORY_ERROR.test(message)) return new Error(`the model does not fit in the page's memory (wasm heaps are capped at 4 GiB, tabs lower): ${message}`);
  return err instanceof Error ? err : new Error(message);
}

function versionsOf(packages: readonly string[]): Record<string, string> {
  return Object.fromEntries(packages.map((p) => [p, installedVersion(p) ?? 'unknown']));
}

/** The browser's name in a reason or note: `Firefox`, `WebKitGTK`, `Chromium`. */
const BROWSER_NAME = { chromium: 'Chromium', firefox: 'Firefox', webkit: 'WebKitGTK' } as const;

/** Why a WebGPU engine cannot run in this browser, and what would change that. */
function noWebgpu(variant: BrowserVariant, why: string): Availability {
  if (variant.browser === 'webkit') return { available: false, reason: `WebKitGTK has no WebGPU: ${why}`, enable: 'run WebGPU engines in chromium or firefox-webgpu (--browsers)' };
  if (variant.browser === 'firefox' && !variant.webgpu) return { available: false, reason: `WebGPU is off in Firefox ESR by default: ${why}`, enable: '--browsers firefox-webgpu (sets the prefs dom.webgpu.enabled and gfx.webgpu.ignore-blocklist)' };
  if (variant.browser === 'firefox') return { available: false, reason: `no WebGPU adapter in Firefox with its WebGPU prefs on: ${why}`, enable: 'a Vulkan driver Firefox accepts (Mesa lavapipe gives a CPU one)' };
  return { available: false, reason: `no WebGPU adapter in headless Chromium: ${why}`, enable: 'a Chromium with WebGPU (--enable-unsafe-webgpu is passed; SwiftShader Vulkan gives a fallback adapter)' };
}

/** The npm client a driver needs, loaded or the reason it is not. */
function clientMissing(variant: BrowserVariant): Availability | null {
  try {
    if (variant.browser === 'chromium') playwright();
    if (variant.browser === 'firefox') createRequire(import.meta.url).resolve('puppeteer-core');
    return null;
  } catch (err) {
    const name = variant.browser === 'chromium' ? 'playwright-core' : 'puppeteer-core';
    return { available: false, reason: `${name} failed to load: ${(err as Error).message.split('\n')[0]}`, enable: `reinstall ${name}` };
  }
}

export function createBrowserEngine(spec: BrowserEngineSpec, variant: BrowserVariant = BROWSER_VARIANTS[0] as BrowserVariant): BrowserEngine {
  let availability: Promise<Availability> | undefined;
  const id = browserEngineId(spec.id, variant.name);
  const name = BROWSER_NAME[variant.browser];

  async function doProbe(): Promise<Availability> {
    const driver = await driverFor(variant.browser);
    const found = await driver.find();
    if ('reason' in found) return { available: false, reason: found.reason, enable: found.enable };
    const missing = missingAssets(spec.entry, spec.packages);
    if (missing) return { available: false, reason: missing, enable: 'npm install (inferbench installs playwright-core, puppeteer-core, esbuild and the runtimes as dependencies)' };
    const client = clientMissing(variant);
    if (client) return client;
    const versions = { ...versionsOf(spec.packages), [variant.browser]: found.version };
    if (spec.needs !== null) {
      const caps = variant.browser === 'chromium' ? await pageCapabilities(found) : await browserCapabilities(variant, found.path);
      // Named in `inferbench engines`, so SwiftShader is visible before anything runs.
      if (spec.needs === 'webgl2' && caps.webglRenderer !== null) versions['WebGL renderer'] = caps.webglRenderer;
      if (spec.needs === 'webgpu' && caps.webgpuAdapter !== null) versions['WebGPU adapter'] = caps.webgpuAdapter;
      if (spec.needs === 'webgl2' && caps.webglRenderer === null) return { available: false, reason: caps.webglUnavailable ?? 'no WebGL2 context', enable: `a ${name} with WebGL (SwiftShader ships with Debian chromium)` };
      if (spec.needs === 'webgpu' && caps.webgpuAdapter === null) return noWebgpu(variant, caps.webgpuUnavailable ?? 'unknown');
    }
    return { available: true, versions };
  }

  return {
    id,
    target: spec.target,
    ...declaredBy(spec.target),
    description: variant.browser === 'chromium' ? spec.description : `${spec.description.replace('headless Chromium', name)}${variant.optIn ? `; ${variant.optIn}` : ''}`,
    runsIn: 'browser',
    spec,
    browser: variant,
    probe: () => (availability ??= doProbe()),
    open(): Promise<EngineSession> {
      return Promise.reject(new Error(`${id} runs in a browser page: run it through inferbench run or Benchmark.run (the browser launcher), not a direct open`));
    },
    async openIn(host: PageHost, onnxPath: string, options: ResolvedSessionOptions): Promise<EngineSession> {
      // A GraphModel is model.json plus its shards: the folder is served, and the page fetches model.json from it.
      const graphModel = formatOf(spec.target) === 'graph-model';
      const folder = graphModel ? host.serveFolder(dirname(onnxPath)) : null;
      const request: PageOpenRequest = {
        runtime: spec.runtime,
        backend: spec.backend,
        threads: options.threads,
        modelUrl: folder ? `${folder.root}${folder.name}/${basename(onnxPath)}` : host.serveFile(onnxPath),
        ...(graphModel ? { executor: 'graph-model' as const } : {}),
        warmupModelUrl: `${host.origin}${WARMUP_PATH}`,
        assets: assetUrls(host.origin, spec.runtime, spec.backend),
        ...(spec.runtime === 'transformers' ? { pipeline: pipelineOf(host, onnxPath, options) } : {}),
        ...(host.testHooks ?? {}),
      };
      const caps = await host.call('capabilities');
      const opened = await host.call('open', request).catch((err: unknown) => {
        throw openFailure(err);
      });
      // A thread count the page could not honour is not measured under another count (tfjs-wasm's pthread pool, ORT without SharedArrayBuffer).
      if (options.threads !== null && opened.threads !== null && opened.threads !== options.threads) {
        await host.call('dispose').catch(() => undefined);
        throw new CellSkip(`${id} asked for ${options.threads} thread(s), the page runs ${opened.threads} (${caps.hardwareConcurrency} cores, crossOriginIsolated ${caps.crossOriginIsolated})`);
      }
      // Both ORT-based runtimes (onnxruntime-web itself, and transformers.js on it) log their WebGPU placement on an untimed build.
      const placementNotes = spec.runtime !== 'tfjs' && spec.backend === 'webgpu' ? await webgpuPlacementNote(host) : [];
      const precision: Precision = spec.runtime === 'tfjs' && opened.precision !== 'unknown' ? opened.precision : options.precision;
      const version = host.browserVersion.replace(/^\D+/, '');
      const adapter = spec.backend === 'webgpu' && caps.webgpuInfo ? describeAdapter(caps.webgpuInfo, `navigator.gpu.requestAdapter() in the benchmark page (${host.browserVersion})`) : undefined;
      return new BrowserSession(
        host,
        {
          engine: id,
          backend: opened.backend,
          ...(opened.executor ? { executor: opened.executor } : {}),
          threads: opened.threads,
          precision,
          versions: { ...versionsOf(spec.packages), ...opened.versions, [variant.browser]: version },
          notes: [
            `${host.browserVersion}, ${variant.browser === 'webkit' ? 'MiniBrowser under Xvfb (WebKitGTK has no headless mode)' : 'headless'}`,
            ...(variant.optIn ? [variant.optIn] : []),
            ...threadNotes(spec, variant, opened.threads, caps),
            ...opened.notes,
            ...placementNotes,
            'timed in the page with performance.now(), outputs read back to the CPU before the clock stops',
          ],
          ...(adapter ? { adapter } : {}),
          browser: {
            browser: host.browserVersion,
            browserName: variant.name,
            browserVersion: version,
            crossOriginIsolated: caps.crossOriginIsolated,
            ...(caps.sharedArrayBuffer !== undefined ? { sharedArrayBuffer: caps.sharedArrayBuffer } : {}),
            hardwareConcurrency: caps.hardwareConcurrency,
            machineCores: availableParallelism(),
            simd: caps.simd,
            ...(caps.timerResolutionMs !== undefined ? { timerResolutionMs: caps.timerResolutionMs } : {}),
            webglRenderer: caps.webglRenderer,
            ...(caps.webglUnavailable ? { webglUnavailable: caps.webglUnavailable } : {}),
            webgpuAdapter: caps.webgpuAdapter,
            ...(caps.webgpuUnavailable ? { webgpuUnavailable: caps.webgpuUnavailable } : {}),
            ...(caps.webgpuFeatures ? { webgpuFeatures: caps.webgpuFeatures } : {}),
            coldStart: { pageLoadMs: host.pageLoadMs, runtimeInitMs: opened.runtimeInitMs, sessionBuildMs: opened.sessionBuildMs },
            memory: { afterOpen: opened.heap, peakJsHeapBytes: null },
          },
        },
        spec.runtime === 'tfjs',
      );
    },
  };
}

const PLACED = /Node\(s\) placed on \[(\w+)\]\. Number of nodes: (\d+)/;

/**
 * ORT's node placement for the WebGPU EP, from the verbose log the page
 * printed on its untimed second build. No node on WebGPU means the model
 * would run on the CPU: an error, never a quiet fallback.
 */
async function webgpuPlacementNote(host: PageHost): Promise<string[]> {
  const placed = new Map<string, number>();
  for (const line of host.consoleLines(PLACED)) {
    const m = PLACED.exec(line);
    if (m?.[1]) placed.set(m[1], Number(m[2]));
  }
  if (!((placed.get('WebGpuExecutionProvider') ?? 0) > 0)) {
    await host.call('dispose').catch(() => undefined);
    const seen = placed.size > 0 ? [...placed].map(([ep, n]) => `${ep} ${n}`).join(', ') : 'no placement logged';
    throw new Error(`the WebGPU execution provider took no node (${seen}): the model would run on the CPU; not falling back`);
  }
  const where = [...placed].map(([ep, n]) => `${ep} ${n} nodes`).join(', ');
  return [`ORT node placement (its verbose log on an untimed second build): ${where}; ORT keeps shape ops on the CPU on purpose`];
}

/**
 * transformers.js loads by model id under a root URL (env.localModelPath):
 * the folder is served as one. The page builds the pipeline Node's
 * transformers-js would (pipeline-task.ts): a sentence-embedding model gets
 * the feature-extraction pipeline, never the classifier's.
 */
function pipelineOf(host: PageHost, onnxPath: string, options: ResolvedSessionOptions): NonNullable<PageOpenRequest['pipeline']> {
  const { folder, dtype } = pipelineTarget(onnxPath);
  const { root, name } = host.serveFolder(folder);
  return { root, modelId: name, dtype, ...pipelineTask(options) };
}
