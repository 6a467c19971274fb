import { test } from 'node:test';
import assert from 'node:assert/strict';
import { drivePage, type PageLike } from '../../src/launchers/browser/page-driver.js';

/** A page whose open() answers after `openMs` and whose run() never answers: a hung batch. */
function fakePage(openMs: number): PageLike {
  return {
    goto: async () => undefined,
    waitForFunction: async () => undefined,
    evaluate: (<R, A>(_fn: (arg: A) => R | Promise<R>, arg: A) => {
      const [method] = arg as unknown as [string];
      if (method === 'run') return new Promise<R>(() => undefined);
      return new Promise<R>((resolve) => setTimeout(() => resolve({} as R), openMs));
    }) as PageLike['evaluate'],
    on: () => undefined,
  };
}

const base = { origin: 'http://127.0.0.1:1', browserVersion: 'Chromium 0', pageLoadMs: 0, serveFile: () => '', serveFolder: () => ({ root: '', name: '' }) };

test('runTimeoutMs bounds only run(): an open slower than it still answers, a hung run() fails at its bound and breaks the page', async () => {
  const { host, broken } = drivePage(fakePage(300), { ...base, timeoutMs: 60_000, runTimeoutMs: 100 });
  await host.call('open', { modelUrl: 'x' } as never);
  assert.equal(broken(), null, 'a 300 ms open is within the 60 s bound, whatever the run bound');
  await assert.rejects(host.call('run', 1), /did not answer run\(\) within 0\.1 s \(hung\); the browser is closed/);
  assert.match(broken() ?? '', /run\(\) within 0\.1 s/);
  await assert.rejects(host.call('open', { modelUrl: 'x' } as never), /the page is unusable: .*run\(\) within 0\.1 s/);
});

test('without runTimeoutMs, run() is bounded by timeoutMs as before', async () => {
  const { host } = drivePage(fakePage(0), { ...base, timeoutMs: 100 });
  await assert.rejects(host.call('run', 1), /did not answer run\(\) within 0\.1 s \(hung\)/);
});
