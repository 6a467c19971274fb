/**
 * What a page in this machine's Chromium offers (WebGL2 renderer, WebGPU
 * adapter), read once per process for the GPU engines' probes: Chromium
 * is started on a loopback page (a secure context, as WebGPU requires),
 * asked, and closed.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { launchChromium } from './chromium.js';
import { readCapabilities } from './page/page-common.js';
import type { PageCapabilities } from './page/protocol.js';

let probed: Promise<PageCapabilities> | undefined;

interface PageLike {
  goto(url: string): Promise<unknown>;
  evaluate<T>(fn: () => Promise<T>): Promise<T>;
}

async function probeOnce(chromiumPath: string): Promise<PageCapabilities> {
  const server = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html', 'cross-origin-opener-policy': 'same-origin', 'cross-origin-embedder-policy': 'require-corp' });
    res.end('<!doctype html><title>inferbench probe</title>');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const browser = await launchChromium(chromiumPath).catch((err: unknown) => {
    server.close();
    throw err;
  });
  try {
    const context = await browser.newContext();
    const page = (await context.newPage()) as PageLike;
    await page.goto(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`);
    return await page.evaluate(readCapabilities);
  } finally {
    await browser.close().catch(() => undefined);
    server.close();
  }
}

/** The capabilities of a page in Chromium at `chromiumPath`, probed once per process. */
export function pageCapabilities(chromiumPath: string): Promise<PageCapabilities> {
  probed ??= probeOnce(chromiumPath);
  return probed;
}
