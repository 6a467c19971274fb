/**
 * The Chromium driver: playwright-core, as inferbench always drove it
 * (chromium.ts holds the binary check, the launch flags and the watchdog).
 */
import type { BrowserDriver, LaunchedBrowser, PageLike } from './browser-driver.js';
import { findChromium, launchChromium } from './chromium.js';

export const CHROMIUM_DRIVER: BrowserDriver = {
  browser: 'chromium',
  find: (env) => findChromium(env),
  async launch(path) {
    const browser = await launchChromium(path);
    const launched: LaunchedBrowser = {
      version: `Chromium ${browser.version()}`,
      async newContext() {
        const context = await browser.newContext();
        return { newPage: async () => (await context.newPage()) as PageLike, close: () => context.close() };
      },
      close: () => browser.close(),
      newBrowserCDPSession: () => browser.newBrowserCDPSession(),
    };
    return launched;
  },
};
