/**
 * What a page offers in one browser (WebGL2 renderer, WebGPU adapter,
 * SharedArrayBuffer, timer step), read on a bare loopback page with
 * COOP/COEP (a secure, cross-origin isolated context, as the benchmark page
 * is) through the browser's driver. Chromium's answer is also remembered on
 * disk (capability-probe.ts); Firefox's and WebKit's are asked once per
 * process and browser, for the GPU engines' probes and `inferbench engines`.
 */
import { createServer } from 'node:http';
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

const asked = new Map<string, Promise<PageCapabilities & { readonly version: string }>>();

/** A Firefox or WebKit page's capabilities, once per process and browser; a failed launch reads as nothing offered, with its reason. */
export function browserCapabilities(variant: BrowserVariant, path: string): Promise<PageCapabilities & { readonly version: string }> {
  let pending = asked.get(`${variant.name}\u0000${path}`);
  if (!pending) {
    pending = driverFor(variant.family)
      .then((driver) => probePage(() => driver.launch(path, variant)))
      .catch((err: unknown) => {
        const why = `the browser did not start: ${(err instanceof Error ? err.message : String(err)).split('\n')[0]}`;
        return { userAgent: '', version: 'unknown', crossOriginIsolated: false, hardwareConcurrency: 0, simd: false, webglRenderer: null, webglUnavailable: why, webgpuAdapter: null, webgpuUnavailable: why };
      });
    asked.set(`${variant.name}\u0000${path}`, pending);
  }
  return pending;
}
