/**
 * Drives one benchmark page: every call to the page's API is bounded by a
 * timeout, and a crashed or hung page fails every later call at once with
 * the first reason, so a dead page costs one timeout, not one per cell.
 */
import type { PageApi, PageHost, PageLike } from '../../../engines/browser/driver-api.js';

/** The page every browser driver gives (engines/browser/browser-driver.ts). */
export type { PageLike } from '../../../engines/browser/driver-api.js';

export interface PageDriverOptions {
  readonly origin: string;
  readonly browserVersion: string;
  readonly pageLoadMs: number;
  readonly timeoutMs: number;
  /** Bound of one timed batch (the page's run()); `timeoutMs` when absent. */
  readonly runTimeoutMs?: number;
  readonly serveFile: PageHost['serveFile'];
  readonly serveFolder: PageHost['serveFolder'];
  readonly testHooks?: PageHost['testHooks'];
  readonly residentMemory?: PageHost['residentMemory'];
}

/** The host, and whether the page broke (hung or crashed): a broken page's browser is not reused. */
export function drivePage(page: PageLike, options: PageDriverOptions): { readonly host: PageHost; readonly broken: () => string | null } {
  let broken: string | null = null;
  const breakers = new Set<(reason: string) => void>();
  const fail = (reason: string) => {
    broken ??= reason;
    for (const b of breakers) b(broken);
  };
  page.on('crash', () => fail('the page crashed (the browser ended its renderer or content process, e.g. out of memory)'));
  // Kept for engines that read a runtime's own log (ORT's node placement); bounded so a chatty page cannot grow it without end.
  const consoleText: string[] = [];
  page.on('console', (message) => {
    const text = (message as { text(): string }).text();
    if (consoleText.length < 10_000) consoleText.push(text);
  });
  const host: PageHost = {
    origin: options.origin,
    browserVersion: options.browserVersion,
    pageLoadMs: options.pageLoadMs,
    serveFile: options.serveFile,
    serveFolder: options.serveFolder,
    consoleLines: (pattern) => consoleText.filter((t) => pattern.test(t)),
    ...(options.testHooks ? { testHooks: options.testHooks } : {}),
    ...(options.residentMemory ? { residentMemory: options.residentMemory } : {}),
    call<M extends keyof PageApi>(method: M, ...args: Parameters<PageApi[M]>) {
      type Result = Awaited<ReturnType<PageApi[M]>>;
      if (broken !== null) return Promise.reject(new Error(`the page is unusable: ${broken}`));
      return new Promise<Result>((resolve, reject) => {
        const onBreak = (reason: string) => reject(new Error(reason));
        breakers.add(onBreak);
        const bound = method === 'run' ? (options.runTimeoutMs ?? options.timeoutMs) : options.timeoutMs;
        const timer = setTimeout(() => fail(`the page did not answer ${method}() within ${bound / 1000} s (hung); the browser is closed`), bound);
        page
          .evaluate(
            ([m, a]) => (globalThis as unknown as { __inferbench: Record<string, (...x: unknown[]) => unknown> }).__inferbench[m]!(...a),
            [method, args] as [string, unknown[]],
          )
          .then((value) => resolve(value as Result), (err: unknown) => reject(err instanceof Error ? new Error(`in the page: ${err.message.replace(/^page\.evaluate: /, '')}`) : err))
          .finally(() => {
            clearTimeout(timer);
            breakers.delete(onBreak);
          });
      });
    },
  };
  return { host, broken: () => broken };
}
