/**
 * The WebKit driver: WebKitGTK's MiniBrowser through Debian's
 * WebKitWebDriver, a W3C WebDriver client of a handful of fetch calls, under
 * an Xvfb of its own (MiniBrowser has no headless mode; Xvfb picks a free
 * display itself with -displayfd). WebDriver reports no console and no page
 * error, so the page records them itself (page-assets.ts `pageHtml`) and
 * every evaluate brings back what was recorded since the last one.
 * One session is one window: a round's fresh page is a fresh navigation.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import { createServer } from 'node:net';
import { parentDeathPrefix } from '../../src/core/parent-death.js';
import type { BrowserDriver, BrowserFound, LaunchedBrowser, PageLike } from './browser-driver.js';

export const WEBKIT_DRIVER_ENV = 'INFERBENCH_WEBKIT_DRIVER';
export const WEBKIT_APT = 'apt-get install webkit2gtk-driver xvfb';
const DEFAULT_DRIVER = '/usr/bin/WebKitWebDriver';
const MINIBROWSER = '/usr/lib/x86_64-linux-gnu/webkit2gtk-4.1/MiniBrowser';
const XVFB = '/usr/bin/Xvfb';
/** How long the driver and Xvfb may take to come up. */
const START_TIMEOUT_MS = 30_000;

function executable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** WebKitWebDriver has no --version and MiniBrowser needs a display for one: the Debian package says it; the session's capabilities say it again. */
function packageVersion(): string {
  const r = spawnSync('dpkg-query', ['-W', '-f', '${Version}', 'webkit2gtk-driver'], { encoding: 'utf8', timeout: 10_000 });
  return r.status === 0 && r.stdout.trim() !== '' ? r.stdout.trim().replace(/-.*$/, '') : 'unknown';
}

function findWebKit(env: NodeJS.ProcessEnv = process.env): Promise<BrowserFound> {
  const fromEnv = env[WEBKIT_DRIVER_ENV];
  const path = fromEnv !== undefined && fromEnv !== '' ? fromEnv : DEFAULT_DRIVER;
  const enable = `${WEBKIT_APT}, or set ${WEBKIT_DRIVER_ENV} to a WebKitWebDriver binary`;
  if (!executable(path)) return Promise.resolve({ reason: path === fromEnv ? `${WEBKIT_DRIVER_ENV}=${path} is not an executable file` : `no WebKitWebDriver at ${DEFAULT_DRIVER}`, enable });
  if (!executable(MINIBROWSER)) return Promise.resolve({ reason: `no MiniBrowser at ${MINIBROWSER}`, enable });
  if (!executable(XVFB)) return Promise.resolve({ reason: `no Xvfb at ${XVFB} (MiniBrowser has no headless mode)`, enable });
  return Promise.resolve({ path, version: packageVersion() });
}

/** Starts a child that dies with this process where setpriv can arrange it. */
function startChild(command: string, args: readonly string[], env: NodeJS.ProcessEnv, stdio: ('ignore' | 'pipe')[]): ChildProcess {
  const prefix = parentDeathPrefix('KILL') ?? [];
  const [head, ...rest] = [...prefix, command, ...args];
  return spawn(head as string, rest, { env, stdio, detached: false });
}

/** Xvfb on a display it chose itself, and that display's number. */
function startXvfb(): Promise<{ child: ChildProcess; display: string }> {
  return new Promise((resolve, reject) => {
    const child = startChild(XVFB, ['-displayfd', '3', '-nolisten', 'tcp', '-screen', '0', '1280x800x24'], process.env, ['ignore', 'ignore', 'pipe', 'pipe']);
    let said = '';
    let err = '';
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`Xvfb did not start within ${START_TIMEOUT_MS / 1000} s`));
    }, START_TIMEOUT_MS);
    child.stdio[2]?.on('data', (d: Buffer) => (err = (err + d.toString()).slice(-500)));
    child.stdio[3]?.on('data', (d: Buffer) => {
      said += d.toString();
      if (said.includes('\n')) {
        clearTimeout(timer);
        resolve({ child, display: `:${said.trim()}` });
      }
    });
    child.on('error', (e) => {
      clearTimeout(timer);
      reject(new Error(`Xvfb could not be started: ${e.message}`));
    });
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`Xvfb exited with code ${code}: ${err.trim().split('\n').pop() ?? ''}`));
    });
  });
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.on('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });
}

/** One WebDriver command; a WebDriver error becomes an Error with its message. */
async function command<T>(base: string, method: 'GET' | 'POST' | 'DELETE', path: string, body?: unknown): Promise<T> {
  const res = await fetch(`${base}${path}`, { method, headers: { 'content-type': 'application/json' }, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
  const json = (await res.json()) as { value: T & { error?: string; message?: string } };
  if (!res.ok) throw new Error(`WebDriver ${method} ${path}: ${json.value?.error ?? res.status}: ${json.value?.message ?? ''}`.trim());
  return json.value;
}

type Listener = (value: unknown) => void;

/** What the page recorded (page-assets.ts's console hook): console lines and uncaught errors. */
interface Recorded {
  readonly kind: 'console' | 'error';
  readonly text: string;
}

function pageOf(base: string, session: string): PageLike {
  const listeners = new Map<string, Listener[]>();
  const emit = (log: readonly Recorded[] | undefined) => {
    for (const r of log ?? []) {
      for (const l of listeners.get(r.kind === 'console' ? 'console' : 'pageerror') ?? []) l(r.kind === 'console' ? { text: () => r.text } : new Error(r.text));
    }
  };
  const evaluate = async <R, A>(fn: (arg: A) => R | Promise<R>, arg: A): Promise<R> => {
    const script = [
      'const done = arguments[arguments.length - 1], arg = arguments[0];',
      'const drain = () => (globalThis.__inferbenchLog ? globalThis.__inferbenchLog.splice(0) : []);',
      `Promise.resolve().then(() => (${fn.toString()})(arg)).then((v) => done({ ok: v === undefined ? null : v, log: drain() }), (e) => done({ err: String((e && e.message) || e), log: drain() }));`,
    ].join('\n');
    const answer = await command<{ ok?: R; err?: string; log?: Recorded[] }>(base, 'POST', `/session/${session}/execute/async`, { script, args: [arg ?? null] });
    emit(answer.log);
    if (answer.err !== undefined) throw new Error(answer.err);
    return answer.ok as R;
  };
  return {
    goto: (url) => command(base, 'POST', `/session/${session}/url`, { url }),
    async waitForFunction(fn, _arg, options) {
      const until = Date.now() + (options?.timeout ?? START_TIMEOUT_MS);
      for (;;) {
        if (await evaluate(fn, undefined).catch(() => false)) return true;
        if (Date.now() > until) throw new Error(`the page's condition did not hold within ${(options?.timeout ?? START_TIMEOUT_MS) / 1000} s`);
        await new Promise((r) => setTimeout(r, 100));
      }
    },
    evaluate,
    on(event, listener) {
      listeners.set(event, [...(listeners.get(event) ?? []), listener]);
    },
  };
}

async function waitReady(base: string, driver: ChildProcess): Promise<void> {
  const until = Date.now() + START_TIMEOUT_MS;
  while (Date.now() < until) {
    if (driver.exitCode !== null) throw new Error(`WebKitWebDriver exited with code ${driver.exitCode}`);
    const ready = await command<{ ready?: boolean }>(base, 'GET', '/status').then((s) => s.ready !== false, () => false);
    if (ready) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`WebKitWebDriver did not answer within ${START_TIMEOUT_MS / 1000} s`);
}

export const WEBKIT_DRIVER: BrowserDriver = {
  browser: 'webkit',
  find: (env) => findWebKit(env),
  async launch(path, variant) {
    const xvfb = await startXvfb();
    const children: ChildProcess[] = [xvfb.child];
    const stop = () => {
      for (const c of children.reverse()) if (c.exitCode === null) c.kill('SIGKILL');
    };
    try {
      const port = await freePort();
      const env = { ...process.env, DISPLAY: xvfb.display, ...(variant.sharedArrayBuffer ? { JSC_useSharedArrayBuffer: 'true' } : {}) };
      const driver = startChild(path, [`--port=${port}`, '--host=127.0.0.1'], env, ['ignore', 'ignore', 'ignore']);
      children.push(driver);
      const base = `http://127.0.0.1:${port}`;
      await waitReady(base, driver);
      const created = await command<{ sessionId: string; capabilities: { browserVersion?: string } }>(base, 'POST', '/session', {
        capabilities: { alwaysMatch: { 'webkitgtk:browserOptions': { binary: MINIBROWSER, args: ['--automation'] }, timeouts: { script: 24 * 3600_000, pageLoad: 300_000 } } },
      });
      const session = created.sessionId;
      const launched: LaunchedBrowser = {
        version: `WebKitGTK ${created.capabilities.browserVersion ?? 'unknown'}`,
        async newContext() {
          return {
            newPage: async () => pageOf(base, session),
            close: async () => {
              await command(base, 'POST', `/session/${session}/url`, { url: 'about:blank' }).catch(() => undefined);
            },
          };
        },
        async close() {
          await Promise.race([command(base, 'DELETE', `/session/${session}`).catch(() => undefined), new Promise((r) => setTimeout(r, 5000).unref())]);
          stop();
        },
      };
      return launched;
    } catch (err) {
      stop();
      throw err;
    }
  },
};
