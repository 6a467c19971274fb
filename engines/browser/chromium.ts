/**
 * Where Chromium is and how it is started. Shared by the engines' probe and
 * the browser launcher, so both see the same binary with the same flags.
 * inferbench never downloads a browser: it uses Debian's /usr/bin/chromium
 * or the binary named by INFERBENCH_CHROMIUM.
 */
import { accessSync, constants } from 'node:fs';

export const DEFAULT_CHROMIUM = '/usr/bin/chromium';
export const CHROMIUM_ENV = 'INFERBENCH_CHROMIUM';
export const CHROMIUM_ENABLE = `apt-get install chromium, or set ${CHROMIUM_ENV} to a Chromium binary`;

/**
 * Flags of every launch. The first five keep Chromium from calling home or
 * updating itself mid-run; `--enable-unsafe-webgpu` is what gives headless
 * Chromium a WebGPU adapter (SwiftShader's Vulkan, a fallback adapter, on a
 * machine without a GPU); `--enable-precise-memory-info` un-buckets
 * performance.memory, and ForceEagerMeasureMemory makes
 * measureUserAgentSpecificMemory answer at once (~20 ms) instead of at the
 * next garbage collection (13–15 s measured here).
 */
export const CHROMIUM_FLAGS: readonly string[] = [
  '--no-sandbox',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--enable-unsafe-webgpu',
  '--enable-precise-memory-info',
  '--enable-blink-features=ForceEagerMeasureMemory',
];

/** The Chromium binary to use, or why there is none. */
export function findChromium(env: NodeJS.ProcessEnv = process.env): { readonly path: string } | { readonly reason: string; readonly enable: string } {
  const fromEnv = env[CHROMIUM_ENV];
  const path = fromEnv !== undefined && fromEnv !== '' ? fromEnv : DEFAULT_CHROMIUM;
  try {
    accessSync(path, constants.X_OK);
    return { path };
  } catch {
    const where = path === fromEnv ? `${CHROMIUM_ENV}=${path} is not an executable file` : `no Chromium at ${DEFAULT_CHROMIUM}`;
    return { reason: where, enable: CHROMIUM_ENABLE };
  }
}

/** The parts of playwright-core's Browser used here. */
export interface BrowserLike {
  version(): string;
  newContext(): Promise<{ newPage(): Promise<unknown>; close(): Promise<void> }>;
  close(): Promise<void>;
  /** A DevTools session on the browser itself: its process list (pids, CPU time) for the renderer's memory. */
  newBrowserCDPSession(): Promise<{ send(method: 'SystemInfo.getProcessInfo'): Promise<{ processInfo: { type: string; id: number; cpuTime: number }[] }> }>;
}

/** Starts headless Chromium through playwright-core, imported only now (it is not needed by Node engines). */
export async function launchChromium(path: string): Promise<BrowserLike> {
  const { chromium } = await import('playwright-core');
  return (await chromium.launch({ executablePath: path, headless: true, args: [...CHROMIUM_FLAGS] })) as unknown as BrowserLike;
}
