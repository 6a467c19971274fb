/**
 * One interface for the three browsers: find the binary, launch, open a
 * page, evaluate in it, hear its console and errors, close. Each browser has
 * one small module behind it (chromium-driver.ts: playwright-core;
 * firefox-driver.ts: puppeteer-core over WebDriver BiDi; webkit-driver.ts: a
 * W3C WebDriver client of a few fetch calls, under its own Xvfb). The
 * launcher and the capability probe drive any of them the same way.
 * No browser is ever downloaded: each is found by path (Debian's, or the
 * one an environment variable names), and a missing one says the apt line.
 */
import { accessSync, constants } from 'node:fs';
import { askVersion } from './chromium.js';
import type { Browser, BrowserVariant } from './browser-variants.js';

/** The parts of a page every driver gives (playwright-core's Page's names, which the Chromium driver passes through). */
export interface PageLike {
  goto(url: string, options?: { timeout?: number }): Promise<unknown>;
  waitForFunction(fn: () => boolean, arg?: unknown, options?: { timeout?: number }): Promise<unknown>;
  evaluate<R, A>(fn: (arg: A) => R | Promise<R>, arg: A): Promise<R>;
  /** `console` gives `{ text() }`, `pageerror` an Error or its message, `crash` nothing. */
  on(event: 'crash' | 'pageerror' | 'console', listener: (value: unknown) => void): unknown;
}

/** A fresh page (Chromium: its own browser context; Firefox: a user context; WebKit: the window, navigated anew). */
export interface PageContext {
  newPage(): Promise<PageLike>;
  close(): Promise<void>;
}

/** A launched browser. */
export interface LaunchedBrowser {
  /** e.g. `Chromium 156.0.8078.79`, `Firefox 153.8.0`, `WebKitGTK 2.50.6`: read back from the running browser. */
  readonly version: string;
  newContext(): Promise<PageContext>;
  close(): Promise<void>;
  /** Chromium only: a DevTools session on the browser, for the renderer's memory. */
  newBrowserCDPSession?(): Promise<{ send(method: 'SystemInfo.getProcessInfo'): Promise<{ processInfo: { type: string; id: number; cpuTime: number }[] }> }>;
}

/** The binary to use, or why there is none and the line that installs it. */
export type BrowserFound = { readonly path: string; readonly version: string } | { readonly reason: string; readonly enable: string };

export interface BrowserDriver {
  readonly browser: Browser;
  find(env?: NodeJS.ProcessEnv): Promise<BrowserFound>;
  /** Starts the browser as `variant` asks (Firefox's WebGPU prefs, WebKit's SharedArrayBuffer). */
  launch(path: string, variant: BrowserVariant): Promise<LaunchedBrowser>;
}

/** Where a browser's binary is looked for and how its version is read. */
export interface BinarySpec {
  readonly name: string;
  readonly envVar: string;
  readonly defaultPath: string;
  readonly versionPattern: RegExp;
  readonly apt: string;
}

const probed = new Map<string, Promise<BrowserFound>>();

/**
 * The binary (the environment variable's, else Debian's), checked before
 * anything is launched: executable, and answering `--version` as `spec`
 * expects. Memoised per path.
 */
export function findBinary(spec: BinarySpec, env: NodeJS.ProcessEnv = process.env): Promise<BrowserFound> {
  const fromEnv = env[spec.envVar];
  const path = fromEnv !== undefined && fromEnv !== '' ? fromEnv : spec.defaultPath;
  const enable = `${spec.apt}, or set ${spec.envVar} to a ${spec.name} binary`;
  try {
    accessSync(path, constants.X_OK);
  } catch {
    const where = path === fromEnv ? `${spec.envVar}=${path} is not an executable file` : `no ${spec.name} at ${spec.defaultPath}`;
    return Promise.resolve({ reason: where, enable });
  }
  let found = probed.get(path);
  if (!found) {
    const named = path === fromEnv ? `${spec.envVar}=${path}` : path;
    found = askVersion(path, spec.versionPattern, spec.name).then((a) => ('version' in a ? { path, version: a.version } : { reason: `${named} is not a working ${spec.name}: ${a.problem}`, enable }));
    probed.set(path, found);
  }
  return found;
}
