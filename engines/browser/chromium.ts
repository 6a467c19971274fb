/**
 * Where Chromium is and how it is started. Shared by the engines' probe and
 * the browser launcher, so both see the same binary with the same flags.
 * inferbench never downloads a browser: it uses Debian's /usr/bin/chromium
 * or the binary named by INFERBENCH_CHROMIUM.
 */
import { spawn } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { parentDeathPrefix } from '../../src/core/parent-death.js';
import { cachedLaunchScript } from './launch-script.js';

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
export type ChromiumFound = { readonly path: string; readonly version: string } | { readonly reason: string; readonly enable: string };

/** How long `chromium --version` may take (Debian's wrapper answers in about a second). */
const VERSION_TIMEOUT_MS = 15_000;

/** Memoised per binary: the answer does not change within a process. */
const probed = new Map<string, Promise<ChromiumFound>>();

/**
 * The Chromium binary (INFERBENCH_CHROMIUM, else Debian's), checked before
 * anything is launched: it must be executable and answer `--version` with a
 * Chromium or Chrome version within VERSION_TIMEOUT_MS. `/bin/false`, `/bin/ls`
 * or a script that hangs is named with the cause, instead of a Playwright
 * error ("browser has been closed") or a three-minute launch timeout.
 */
export function findChromium(env: NodeJS.ProcessEnv = process.env): Promise<ChromiumFound> {
  const fromEnv = env[CHROMIUM_ENV];
  const path = fromEnv !== undefined && fromEnv !== '' ? fromEnv : DEFAULT_CHROMIUM;
  const named = path === fromEnv ? `${CHROMIUM_ENV}=${path}` : path;
  try {
    accessSync(path, constants.X_OK);
  } catch {
    const where = path === fromEnv ? `${CHROMIUM_ENV}=${path} is not an executable file` : `no Chromium at ${DEFAULT_CHROMIUM}`;
    return Promise.resolve({ reason: where, enable: CHROMIUM_ENABLE });
  }
  let found = probed.get(path);
  if (!found) {
    found = askVersion(path, CHROMIUM_VERSION, 'Chromium').then((answer) => ('version' in answer ? { path, version: answer.version } : { reason: `${named} is not a working Chromium: ${answer.problem}`, enable: CHROMIUM_ENABLE }));
    probed.set(path, found);
  }
  return found;
}

const CHROMIUM_VERSION = /\b(?:Chromium|Google Chrome|Chrome|HeadlessChrome)\s+(\d+(?:\.\d+)*)/u;

/**
 * Runs `<path> --version` in its own process group, killed whole after the
 * bound (a wrapper's children included); `pattern`'s first group is the
 * version. Every browser driver checks its binary this way before launching.
 */
export function askVersion(path: string, pattern: RegExp, what: string): Promise<{ readonly version: string } | { readonly problem: string }> {
  return new Promise((resolve) => {
    let out = '';
    let settled = false;
    const finish = (answer: { version: string } | { problem: string }) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(answer);
    };
    const child = spawn(path, ['--version'], { stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    const timer = setTimeout(() => {
      try {
        process.kill(-(child.pid as number), 'SIGKILL');
      } catch {
        // already gone
      }
      finish({ problem: `\`${path} --version\` did not answer within ${VERSION_TIMEOUT_MS / 1000} s` });
    }, VERSION_TIMEOUT_MS);
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString();
      if (out.length > 4096) child.kill('SIGKILL');
    });
    child.stderr.resume();
    child.on('error', (err) => finish({ problem: `it could not be started (${err.message})` }));
    child.on('close', (code, signal) => {
      const version = pattern.exec(out);
      if (version && code === 0) return finish({ version: version[1] as string });
      const said = out.trim().split('\n')[0]?.slice(0, 80) ?? '';
      if (code !== 0) return finish({ problem: `\`${path} --version\` ${signal ? `was killed by ${signal}` : `exited with code ${code}`}` });
      return finish({ problem: `\`${path} --version\` printed ${said === '' ? 'nothing' : JSON.stringify(said)}, not a ${what} version` });
    });
  });
}

/** The parts of playwright-core's Browser used here. */
export interface BrowserLike {
  version(): string;
  newContext(): Promise<{ newPage(): Promise<unknown>; close(): Promise<void> }>;
  close(): Promise<void>;
  /** A DevTools session on the browser itself: its process list (pids, CPU time) for the renderer's memory. */
  newBrowserCDPSession(): Promise<{ send(method: 'SystemInfo.getProcessInfo'): Promise<{ processInfo: { type: string; id: number; cpuTime: number }[] }> }>;
}

/**
 * Chromium features off at every launch. Headless Chromium still builds each
 * window's omnibox popup as a WebUI page in a renderer of its own
 * (chrome://omnibox-popup.top-chrome/): about 1.5 s of CPU per window here,
 * for a toolbar no headless page shows, and CPU taken from the page being
 * measured. A full `npm test` started 24 of them (38 CPU-s).
 */
export const DISABLED_FEATURES: readonly string[] = ['WebUIOmniboxPopup', 'WebUIOmniboxAimPopup', 'WebUIOmniboxFullPopup'];

/**
 * The script Playwright starts instead of Chromium. It does two things.
 *
 * - **Features.** Chromium keeps only the last `--disable-features` it is
 *   given, and playwright-core passes a list of its own, so one more switch
 *   would silently turn its list back on. The script folds every
 *   `--disable-features=` into one, with DISABLED_FEATURES.
 * - **Watchdog.** A shell started with the kernel's parent-death signal
 *   (TERM when this Node process dies, even by SIGKILL; core/parent-death.ts)
 *   starts Chromium and, on that TERM, SIGKILLs its whole process group.
 *   playwright-core starts the browser detached, as the leader of its own
 *   group, and every Chromium process (zygotes, renderers, GPU and utility
 *   processes) stays in it. The kernel's signal on Chromium's main process
 *   alone left the others to notice their closed pipes and shut down on
 *   their own: over a second on a loaded machine, and never while they were
 *   stopped.
 */
export function launchScript(path: string, prefix: readonly string[]): string {
  const quote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;
  const body = `trap "kill -KILL 0" TERM; "$0" "$@" & wait $!`;
  // `for a do` walks the arguments as they were; each is shifted off and put back unless it is a feature list.
  const fold = [
    `f=${quote(DISABLED_FEATURES.join(','))}`,
    'for a do',
    '  shift',
    '  case $a in --disable-features=*) f="$f,${a#--disable-features=}" ;; *) set -- "$@" "$a" ;; esac',
    'done',
  ];
  return `#!/bin/sh\n${fold.join('\n')}\nexec ${[...prefix, '/bin/sh', '-c', body, path].map(quote).join(' ')} "--disable-features=$f" "$@"\n`;
}

/**
 * An executable that starts `path` through the script above, or `path`
 * itself where setpriv cannot set the signal (then without the features
 * either: a bare switch would undo playwright-core's list). Playwright spawns
 * the executable it is given with its own arguments, so the script lives in
 * the inferbench cache (user-owned, never a shared temp folder).
 */
export async function scriptedChromium(path: string): Promise<string> {
  const prefix = parentDeathPrefix('TERM');
  if (!prefix) return path;
  const script = launchScript(path, prefix);
  return cachedLaunchScript('chromium', script);
}

/**
 * playwright-core, loaded when first needed (Node engines never need it) and
 * by `require`: it is CommonJS, and `import()` first lexed its files for
 * named exports, 0.9 s of CPU where `require` takes 0.6, in every process
 * that probes or drives Chromium.
 */
export function playwright(): typeof import('playwright-core') {
  return createRequire(import.meta.url)('playwright-core') as typeof import('playwright-core');
}

/** Starts headless Chromium through playwright-core. */
export async function launchChromium(path: string): Promise<BrowserLike> {
  const { chromium } = playwright();
  const launch = (executablePath: string) => chromium.launch({ executablePath, headless: true, args: [...CHROMIUM_FLAGS] });
  const bound = await scriptedChromium(path).catch(() => path);
  // A cache on a noexec file system cannot run the script: Chromium is then started as is.
  const browser = bound === path ? await launch(path) : await launch(bound).catch(() => launch(path));
  return browser as unknown as BrowserLike;
}
