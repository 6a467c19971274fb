/**
 * The driver of each browser family (browser-driver.ts), apart from the
 * interface so that the drivers, which import it, form no cycle with it.
 */
import type { BrowserDriver } from './browser-driver.js';
import type { BrowserFamily } from './browser-variants.js';

/** The driver of a browser family, its module (and npm client) imported only when asked for. */
export async function driverFor(family: BrowserFamily): Promise<BrowserDriver> {
  if (family === 'firefox') return (await import('./firefox-driver.js')).FIREFOX_DRIVER;
  if (family === 'webkit') return (await import('./webkit-driver.js')).WEBKIT_DRIVER;
  return (await import('./chromium-driver.js')).CHROMIUM_DRIVER;
}
