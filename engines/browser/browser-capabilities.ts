/**
 * What a page offers in one browser (WebGL2 renderer, WebGPU adapter,
 * SharedArrayBuffer, timer step), read on a bare loopback page with
 * COOP/COEP (a secure, cross-origin isolated context, as the benchmark page
 * is) through the browser's driver. Chromium's answer is remembered on disk
 * by capability-probe.ts, Firefox's and WebKit's here (core/probe-memo.ts),
 * for the GPU engines' probes and `inferbench engines`. Each row still reads
 * its own page's capabilities back.
 */
import { readFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import { installedVersion } from '../../src/core/package-info.js';
import { fileStamp, folderNames, rememberedAnswer, type ProbeMemo } from '../../src/core/probe-memo.js';
import type { AddressInfo } from 'node:net';
import type { LaunchedBrowser } from './browser-driver.js';
import { driverFor } from './browser-drivers.js';
import type { BrowserVariant } from './browser-variants.js';
import { readCapabilities } from './page/page-common.js';
import type { PageCapabilities } from './page/protocol.js';

/** Launches a browser, reads a bare page's capabilities, closes it. */
export async function probePage(launch: () => Promise<LaunchedBrowser>): Promise<PageCapabilities & { readonly version: string }> {
  const server = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html', 'cross-origin-opener-policy': 'same-origin', 'cross-origin-embedder-policy': 'require-corp' });
    res.end('<!doctype html><title>inferbench probe</title>');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const browser = await launch().catch((err: unknown) => {
    server.close();
    throw err;
  });
  try {
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`, { timeout: 60_000 });
    return { ...(await page.evaluate(readCapabilities, undefined)), version: browser.version };
  } finally {
    await browser.close().catch(() => undefined);
    server.close();
  }
}

type Answer = PageCapabilities & { readonly version: string };

/** Firefox's and WebKit's answers on disk: a launch costs 2–4 CPU-s, and `inferbench engines` asks both. */
const MEMO: ProbeMemo<Answer> = {
  folder: 'browser-capabilities',
  label: 'browser capability probe',
  // An answer from a browser that did not start is asked again next time.
  keep: (a) => a.userAgent !== '',
  parse: (value) => {
    const v = value as Partial<Answer> | null;
    if (v === null || typeof v !== 'object' || typeof v.userAgent !== 'string' || typeof v.version !== 'string' || typeof v.crossOriginIsolated !== 'boolean') return null;
    return v as Answer;
  },
};

/** What decides the answer: the browser's binary and the driver's, the opt-ins, the GPU devices and this boot. */
async function memoKey(variant: BrowserVariant, path: string): Promise<string | null> {
  const binary = await fileStamp(path);
  if (binary === null) return null;
  const boot = await readFile('/proc/sys/kernel/random/boot_id', 'utf8').then((t) => t.trim(), () => null);
  return JSON.stringify({
    format: 1,
    variant,
    binary,
    puppeteer: installedVersion('puppeteer-core'),
    dri: await folderNames('/dev/dri'),
    icd: await folderNames('/usr/share/vulkan/icd.d'),
    env: ['VK_ICD_FILENAMES', 'LD_LIBRARY_PATH', 'LIBGL_ALWAYS_SOFTWARE'].map((k) => process.env[k] ?? null),
    boot,
  });
}

const asked = new Map<string, Promise<Answer>>();

/** A Firefox or WebKit page's capabilities, once per process and browser and remembered across processes; a failed launch reads as nothing offered, with its reason. */
export function browserCapabilities(variant: BrowserVariant, path: string, cacheRoot?: string): Promise<Answer> {
  let pending = asked.get(`${variant.name}\u0000${path}`);
  if (!pending) {
    const probe = () =>
      driverFor(variant.browser)
        .then((driver) => probePage(() => driver.launch(path, variant)))
        .catch((err: unknown): Answer => {
          const why = `the browser did not start: ${(err instanceof Error ? err.message : String(err)).split('\n')[0]}`;
          return { userAgent: '', version: 'unknown', crossOriginIsolated: false, hardwareConcurrency: 0, simd: false, webglRenderer: null, webglUnavailable: why, webgpuAdapter: null, webgpuUnavailable: why };
        });
    pending = memoKey(variant, path).then((key) => rememberedAnswer(MEMO, key, probe, cacheRoot));
    asked.set(`${variant.name}\u0000${path}`, pending);
  }
  return pending;
}
