/**
 * WebGPU in Node for the Node WebGPU engines (onnx-webgpu,
 * transformers-js-webgpu, tfjs-webgpu*): whether Dawn finds an adapter here,
 * which one, and the reason and fix when it does not. Both Dawns involved
 * (onnxruntime-node's WebGPU EP, built in; the `webgpu` package's dawn.node
 * for tfjs) reach the GPU through Vulkan on Linux: the loader
 * `libvulkan.so.1` (Debian libvulkan1) and a driver's ICD, which the loader
 * finds itself or from VK_ICD_FILENAMES.
 *
 * inferbench never picks a driver: it never sets VK_ICD_FILENAMES, so a
 * software driver (SwiftShader) is used only when the user points the loader
 * at it, and then every row says `software adapter (SwiftShader)`.
 */
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { Availability } from '../../src/core/engine.js';
import { describeAdapter, type AdapterInfoLike, type GpuAdapter } from '../../src/core/gpu-adapter.js';
import { installedVersion } from '../../src/core/package-info.js';
import { icdVariableProblem } from './vk-icd-check.js';

/** The npm package that gives Node `navigator.gpu` (Dawn's dawn.node, linux-x64 binary inside; its postinstall only matters on macOS). */
export const WEBGPU_PKG = 'webgpu';

/** Where Debian's chromium puts SwiftShader's Vulkan ICD: named in the fix, never used by inferbench itself. */
export const SWIFTSHADER_ICD = '/usr/lib/chromium/vk_swiftshader_icd.json';

/** What the probe says in a row: the adapter, read in a child process with this process's environment. */
export const PROBE_SOURCE = "Dawn's default high-performance adapter (webgpu package, probe process with this environment: same Vulkan loader and ICD)";

export type DawnProbe = { readonly ok: true; readonly adapter: GpuAdapter } | { readonly ok: false; readonly reason: string; readonly enable: string };

/** Options for tests: a loader file name that is not there, another environment. */
export interface DawnProbeOptions {
  readonly loader?: string;
  readonly env?: NodeJS.ProcessEnv;
}

interface ChildAnswer {
  readonly ok: boolean;
  readonly kind?: 'loader' | 'no-adapter' | 'package' | 'error';
  readonly detail?: string;
  readonly info?: AdapterInfoLike;
}

/** Dawn's own warnings (e.g. why it refused lavapipe), the first two, for the reason. */
function dawnWarnings(stderr: string): string {
  const lines = stderr
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => /^Warning:/.test(l) && !/XDG_RUNTIME_DIR/.test(l))
    .map((l) => l.replace(/^Warning:\s*/, ''));
  return [...new Set(lines)].slice(0, 2).join('; ');
}

/** The fix for "no adapter", naming what is wrong with VK_ICD_FILENAMES when no entry of it is a driver manifest. */
function noDriver(env: NodeJS.ProcessEnv, warnings: string): { reason: string; enable: string } {
  const icd = icdVariableProblem(env['VK_ICD_FILENAMES']);
  const why = icd ?? (warnings === '' ? 'Dawn found no adapter' : `Dawn: ${warnings}`);
  return {
    reason: `no Vulkan driver for a GPU (${why})`,
    enable: `install the GPU's Vulkan driver (NVIDIA: the driver's Vulkan ICD, nvidia_icd.json), or set VK_ICD_FILENAMES to a driver's ICD file, e.g. SwiftShader's (${SWIFTSHADER_ICD}, Debian chromium) for a CPU-only test`,
  };
}

/** Turns the child's answer into the probe's result. */
export function readAnswer(answer: ChildAnswer, stderr: string, loader: string, env: NodeJS.ProcessEnv): DawnProbe {
  if (answer.ok && answer.info !== undefined) return { ok: true, adapter: describeAdapter(answer.info, PROBE_SOURCE) };
  switch (answer.kind) {
    case 'loader':
      return { ok: false, reason: `${loader} not found (the Vulkan loader Dawn needs: ${answer.detail ?? 'dlopen failed'})`, enable: 'apt install libvulkan1' };
    case 'package':
      return { ok: false, reason: `${WEBGPU_PKG} is not installed`, enable: `npm install ${WEBGPU_PKG}` };
    case 'no-adapter':
      return { ok: false, ...noDriver(env, dawnWarnings(stderr)) };
    default:
      return { ok: false, reason: `Dawn failed: ${answer.detail ?? 'no answer'}`, enable: `reinstall ${WEBGPU_PKG}; check the Vulkan driver with vulkaninfo` };
  }
}

/** Runs the probe child and reads its one JSON line; a crash (a driver aborting) is an answer too. */
export function probeDawnAdapter(options: DawnProbeOptions = {}): Promise<DawnProbe> {
  const script = fileURLToPath(new URL('./dawn-probe-child.js', import.meta.url));
  const loader = options.loader ?? 'libvulkan.so.1';
  const env = options.env ?? process.env;
  return new Promise((resolve) => {
    execFile(process.execPath, [script, loader], { timeout: 60_000, env }, (err, stdout, stderr) => {
      const line = stdout.trim().split('\n').pop() ?? '';
      try {
        resolve(readAnswer(JSON.parse(line) as ChildAnswer, stderr, loader, env));
      } catch {
        const why = dawnWarnings(stderr) || stderr.trim().split('\n').pop() || String(err?.message ?? 'no output');
        resolve({ ok: false, reason: `the WebGPU probe process died (${err?.signal ?? err?.code ?? 'no answer'}): ${why}`, enable: 'check the Vulkan driver with vulkaninfo, or set VK_ICD_FILENAMES to another driver' });
      }
    });
  });
}

let cached: Promise<DawnProbe> | undefined;

/** This process's probe, once: every WebGPU engine shares it (one child, about a second). */
export function dawnAdapter(): Promise<DawnProbe> {
  cached ??= probeDawnAdapter();
  return cached;
}

/**
 * The availability of a WebGPU engine whose package probe passed: the
 * adapter Dawn finds, or why there is none. The adapter rides along so
 * `inferbench engines` can name a software one before anything runs.
 */
export async function webGpuAvailability(versions: Readonly<Record<string, string>>): Promise<Availability> {
  const probe = await dawnAdapter();
  if (!probe.ok) return { available: false, reason: probe.reason, enable: probe.enable };
  const dawn = installedVersion(WEBGPU_PKG);
  return { available: true, versions: { ...versions, ...(dawn === null ? {} : { [WEBGPU_PKG]: dawn }) }, adapter: probe.adapter };
}

/** The GPU globals tfjs-backend-webgpu reads (GPUBufferUsage, …) and the adapter tfjs's backend asks for. */
interface NavigatorGpu {
  readonly gpu: unknown;
}

let installed: NavigatorGpu | undefined;

/**
 * Gives this process `navigator.gpu` from dawn.node (and the GPU* globals
 * the WebGPU API defines), once. tfjs-backend-webgpu registers its backend
 * only if `navigator.gpu` exists when its module is evaluated, so this must
 * run before that import.
 */
export async function installNavigatorGpu(): Promise<void> {
  if (installed !== undefined) return;
  const { create, globals } = (await import(WEBGPU_PKG)) as unknown as { create(flags: string[]): unknown; globals: Record<string, unknown> };
  for (const [name, value] of Object.entries(globals)) if (!(name in globalThis)) (globalThis as Record<string, unknown>)[name] = value;
  const g = globalThis as { navigator?: { gpu?: unknown } };
  installed = { gpu: create([]) };
  if (g.navigator === undefined) Object.defineProperty(globalThis, 'navigator', { value: { gpu: installed.gpu }, configurable: true, writable: true });
  else if (g.navigator.gpu === undefined) Object.defineProperty(g.navigator, 'gpu', { value: installed.gpu, configurable: true });
}
