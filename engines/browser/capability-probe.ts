/**
 * What a page in this machine's Chromium offers (WebGL2 renderer, WebGPU
 * adapter), for the GPU engines' probes: Chromium is started on a loopback
 * page (a secure context, as WebGPU requires), asked, and closed. That launch
 * costs about 4 CPU-s (`inferbench engines`: 5.9 CPU-s with it, 1.5 without),
 * so it is done once per process, and a full answer (both a WebGL renderer
 * and a WebGPU adapter) is remembered on disk for later processes until
 * anything that decides it changes (core/probe-memo.ts; the key below).
 *
 * The memo answers availability and the names `inferbench engines` (and a
 * worker's registration) print beside it. Each row still reads the renderer
 * and the adapter back from the page that ran it, and a remembered adapter
 * that is gone makes that open fail with the page's own reason.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { debuglog } from 'node:util';
import { installedVersion } from '../../src/core/package-info.js';
import { fileStamp, folderNames, rememberedAnswer, type ProbeMemo } from '../../src/core/probe-memo.js';
import { CHROMIUM_FLAGS, DISABLED_FEATURES } from './chromium.js';
import { CHROMIUM_DRIVER } from './chromium-driver.js';
import { probePage } from './browser-capabilities.js';
import { BROWSER_VARIANTS, type BrowserVariant } from './browser-variants.js';
import type { PageCapabilities } from './page/protocol.js';

const debug = debuglog('inferbench');

/** Folder of the cache that holds the memo files, one per key. */
export const CAPABILITY_MEMO_FOLDER = 'chromium-capabilities';
/** Bumped when the key or the stored answer changes meaning. */
const FORMAT = 2;
/** Variables that decide which GPU, driver, Vulkan loader or display Chromium's GPU process finds. */
const GPU_ENV = [
  'VK_ICD_FILENAMES', 'VK_DRIVER_FILES', 'VK_ADD_DRIVER_FILES', 'VK_LOADER_DRIVERS_SELECT', 'VK_LOADER_DRIVERS_DISABLE', 'VK_LAYER_PATH',
  'VK_ADD_LAYER_PATH', 'VK_INSTANCE_LAYERS', 'LD_LIBRARY_PATH', 'LD_PRELOAD', 'DISPLAY', 'WAYLAND_DISPLAY', 'LIBGL_ALWAYS_SOFTWARE',
  'GALLIUM_DRIVER', 'MESA_LOADER_DRIVER_OVERRIDE', '__EGL_VENDOR_LIBRARY_FILENAMES', '__GLX_VENDOR_LIBRARY_NAME', 'DRI_PRIME',
] as const;
/**
 * Folders whose files change what Chromium's GPU process finds: drivers'
 * Vulkan ICD and EGL vendor manifests (a driver installed or upgraded
 * changes a file here), and Debian's /etc/chromium.d, whose scripts
 * /usr/bin/chromium sources for flags of its own (an admin's --disable-gpu).
 */
const STAMPED_DIRS = ['/usr/share/vulkan/icd.d', '/etc/vulkan/icd.d', '/usr/local/share/vulkan/icd.d', '/usr/share/glvnd/egl_vendor.d', '/etc/chromium.d'];

/** The Chromium the probe asks: its path and the version its `--version` gave (chromium.ts findChromium). */
export interface ProbedChromium {
  readonly path: string;
  readonly version: string;
}

/** Options for tests: another cache, environment, or prober in place of the launch. */
export interface CapabilityProbeOptions {
  readonly cacheRoot?: string;
  readonly env?: NodeJS.ProcessEnv;
  readonly probe?: (chromiumPath: string) => Promise<PageCapabilities>;
}

async function probeOnce(chromiumPath: string): Promise<PageCapabilities> {
  return probePage(() => CHROMIUM_DRIVER.launch(chromiumPath, BROWSER_VARIANTS[0] as BrowserVariant));
}

const isString = (v: unknown): v is string => typeof v === 'string';

/** A full answer only: a machine without one of the two is asked again each time, so a fix shows at once. */
const MEMO: ProbeMemo<PageCapabilities> = {
  folder: CAPABILITY_MEMO_FOLDER,
  label: 'Chromium capability probe',
  keep: (caps) => caps.webglRenderer !== null && caps.webgpuAdapter !== null,
  parse: (value) => {
    const v = value as Partial<Record<keyof PageCapabilities, unknown>> | null;
    if (v === null || typeof v !== 'object') return null;
    if (typeof v.crossOriginIsolated !== 'boolean' || typeof v.hardwareConcurrency !== 'number' || typeof v.simd !== 'boolean') return null;
    if (!isString(v.webglRenderer) || !isString(v.webgpuAdapter) || !isString(v.userAgent)) return null;
    const { crossOriginIsolated, hardwareConcurrency, simd, webglRenderer, webgpuAdapter, userAgent } = v;
    // Format 2: the timer step and SharedArrayBuffer, for `inferbench engines`' browser lines.
    const timer = typeof v.timerResolutionMs === 'number' || v.timerResolutionMs === null ? { timerResolutionMs: v.timerResolutionMs } : {};
    const sab = typeof v.sharedArrayBuffer === 'boolean' ? { sharedArrayBuffer: v.sharedArrayBuffer } : {};
    return { crossOriginIsolated, hardwareConcurrency, simd, webglRenderer, webgpuAdapter, userAgent, ...timer, ...sab };
  },
};

/** A text file's contents, or null where there is none (no NVIDIA driver, not Linux). */
async function textOrNull(path: string): Promise<string | null> {
  return readFile(path, 'utf8').then((t) => t.trim(), () => null);
}

/**
 * The key text, or null where it cannot be made: the Chromium (path, file,
 * version, the flags and features of every launch, playwright-core's version
 * for its own switches), the variables in GPU_ENV, the GPU devices and
 * drivers (/dev/dri, /dev/nvidia*, the NVIDIA driver's version, the files in
 * STAMPED_DIRS), and this boot (Linux's boot_id), so no answer outlives a
 * reboot, which is when a GPU comes or goes.
 */
export async function capabilityKey(chromium: ProbedChromium, env: NodeJS.ProcessEnv): Promise<string | null> {
  try {
    const binary = await fileStamp(chromium.path);
    if (binary === null) return null;
    const manifests: string[] = [];
    for (const dir of STAMPED_DIRS) {
      for (const name of await folderNames(dir)) manifests.push((await fileStamp(join(dir, name)).catch(() => null)) ?? `${dir}/${name}`);
    }
    return JSON.stringify({
      format: FORMAT,
      // playwright-core adds switches of its own to every launch (--enable-unsafe-swiftshader, a --disable-features list).
      chromium: { binary, version: chromium.version, flags: CHROMIUM_FLAGS, disabledFeatures: DISABLED_FEATURES, playwright: installedVersion('playwright-core') },
      env: Object.fromEntries(GPU_ENV.map((name) => [name, env[name] ?? null])),
      platform: process.platform,
      arch: process.arch,
      boot: await textOrNull('/proc/sys/kernel/random/boot_id'),
      dri: await folderNames('/dev/dri'),
      // NVIDIA's proprietary driver without nvidia-drm has nothing in /dev/dri.
      nvidiaDevices: (await folderNames('/dev')).filter((n) => n.startsWith('nvidia')),
      nvidia: await textOrNull('/proc/driver/nvidia/version'),
      manifests,
    });
  } catch (err) {
    debug(`Chromium capability probe memo: no key for ${chromium.path} (${String(err)})`);
    return null;
  }
}

let probed: Promise<PageCapabilities> | undefined;

/** The capabilities of a page in this Chromium: asked once per process, and remembered across processes while the key holds. */
export function pageCapabilities(chromium: ProbedChromium, options: CapabilityProbeOptions = {}): Promise<PageCapabilities> {
  if (options.cacheRoot !== undefined || options.probe !== undefined || options.env !== undefined) return rememberedCapabilities(chromium, options);
  probed ??= rememberedCapabilities(chromium, options);
  return probed;
}

async function rememberedCapabilities(chromium: ProbedChromium, options: CapabilityProbeOptions): Promise<PageCapabilities> {
  const key = await capabilityKey(chromium, options.env ?? process.env);
  return rememberedAnswer(MEMO, key, () => (options.probe ?? probeOnce)(chromium.path), options.cacheRoot);
}
