/**
 * The Firefox driver: puppeteer-core over WebDriver BiDi, headless, on
 * Debian's firefox-esr (playwright-core cannot drive it: its `firefox`
 * needs Playwright's patched build, and its BiDi channel stops on a command
 * Firefox lacks). puppeteer-core downloads no browser. Each round's page
 * lives in a user context of its own, as Chromium's does in a browser context.
 */
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { parentDeathPrefix } from '../../src/core/parent-death.js';
import { cachedLaunchScript } from './launch-script.js';
import type { BinarySpec, BrowserDriver, LaunchedBrowser, PageLike } from './browser-driver.js';
import { findBinary } from './browser-driver.js';

export const FIREFOX_BINARY: BinarySpec = {
  name: 'Firefox',
  envVar: 'INFERBENCH_FIREFOX',
  defaultPath: '/usr/bin/firefox-esr',
  versionPattern: /\bFirefox\s+(\d+(?:\.\d+)*)/u,
  apt: 'apt-get install firefox-esr',
};

/** Firefox's WebGPU, off by default in ESR: the prefs the `firefox-webgpu` browser sets. */
export const FIREFOX_WEBGPU_PREFS: Readonly<Record<string, boolean>> = Object.freeze({ 'dom.webgpu.enabled': true, 'gfx.webgpu.ignore-blocklist': true });

type PuppeteerPage = {
  goto(url: string, options: { timeout?: number }): Promise<unknown>;
  waitForFunction(fn: () => boolean, options: { timeout?: number }): Promise<unknown>;
  evaluate<R, A>(fn: (arg: A) => R | Promise<R>, arg: A): Promise<R>;
  on(event: string, listener: (value: unknown) => void): unknown;
};

/** puppeteer-core, by `require` when first needed (it is CommonJS, as playwright-core). */
function puppeteer(): typeof import('puppeteer-core') {
  return createRequire(import.meta.url)('puppeteer-core') as typeof import('puppeteer-core');
}

function pageOf(page: PuppeteerPage): PageLike {
  return {
    goto: (url, options) => page.goto(url, { timeout: options?.timeout ?? 0 }),
    waitForFunction: (fn, _arg, options) => page.waitForFunction(fn, { timeout: options?.timeout ?? 0 }),
    evaluate: (fn, arg) => page.evaluate(fn, arg),
    on(event, listener) {
      // puppeteer calls a crashed page's event `error`.
      return page.on(event === 'crash' ? 'error' : event, listener);
    },
  };
}

/**
 * The script puppeteer-core starts instead of Firefox: Chromium's watchdog
 * (chromium.ts `launchScript`) without its feature folding. A shell with the
 * kernel's parent-death signal starts Firefox and, when this Node process
 * dies (even by SIGKILL), SIGKILLs the process group puppeteer-core started
 * it in (Firefox and its content processes). Firefox itself where setpriv
 * cannot set the signal or the cache cannot hold an executable.
 */
async function watchedFirefox(path: string): Promise<string> {
  const prefix = parentDeathPrefix('TERM');
  if (!prefix) return path;
  const quote = (x: string) => `'${x.replace(/'/g, `'\\''`)}'`;
  const script = `#!/bin/sh\nexec ${[...prefix, '/bin/sh', '-c', 'trap "kill -KILL 0" TERM; "$0" "$@" & wait $!', path].map(quote).join(' ')} "$@"\n`;
  return cachedLaunchScript('firefox', script);
}

export const FIREFOX_DRIVER: BrowserDriver = {
  browser: 'firefox',
  find: (env) => findBinary(FIREFOX_BINARY, env),
  async launch(path, variant) {
    const launch = (executablePath: string) =>
      puppeteer().launch({ browser: 'firefox', executablePath, headless: true, ...(variant.webgpu ? { extraPrefsFirefox: { ...FIREFOX_WEBGPU_PREFS } } : {}) });
    const watched = await watchedFirefox(path).catch(() => path);
    // A cache on a noexec file system cannot run the script: Firefox is then started as is.
    const browser = watched === path ? await launch(path) : await launch(watched).catch(() => launch(path));
    const version = (await browser.version()).replace(/^firefox\//i, '');
    const launched: LaunchedBrowser = {
      version: `Firefox ${version}`,
      async newContext() {
        const context = await browser.createBrowserContext();
        return { newPage: async () => pageOf((await context.newPage()) as unknown as PuppeteerPage), close: () => context.close() };
      },
      close: () => browser.close(),
    };
    return launched;
  },
};
