/**
 * The driver of each browser (browser-driver.ts), apart from the
 * interface so that the drivers, which import it, form no cycle with it.
 */
import type { BrowserDriver } from './browser-driver.js';
import type { Browser } from './browser-variants.js';

/** The driver of a browser, its module (and npm client) imported only when asked for. */
export async function driverFor(browser: Browser): Promise<BrowserDriver> {
  if (browser === 'firefox') return (await import('./firefox-driver.js')).FIREFOX_DRIVER;
  if (browser === 'webkit') return (await import('./webkit-driver.js')).WEBKIT_DRIVER;
  return (await import('./chromium-driver.js')).CHROMIUM_DRIVER;
}
