/**
 * Issue 31: launchers know no scenario. A child job kind defined only in a
 * test helper (test/helpers/echo-child-job.ts) runs in a fresh process
 * through the isolated launcher the built-in scenarios use, the child
 * loading the kind from the module its launch names.
 */
import test from 'node:test';
import assert from 'node:assert/strict';
import { isolatedLaunch } from '../../../src/launchers/isolated-launcher.js';
import { echoLaunch, type EchoResult } from '../../helpers/echo-child-job.js';

async function launch(...args: Parameters<typeof echoLaunch>): Promise<{ started: string[]; results: EchoResult[] }> {
  const started: string[] = [];
  const results: EchoResult[] = [];
  await isolatedLaunch()(echoLaunch(...args), { onStart: (word) => void started.push(word), onResult: async (r) => void results.push(r) }, undefined);
  return { started, results };
}

test('a child job kind defined in a test runs isolated through the one child entry and returns its results', async () => {
  const { started, results } = await launch({ words: ['alpha', 'beta'], crashOn: null });
  assert.deepEqual(started, ['alpha', 'beta']);
  assert.deepEqual(results.map((r) => [r.word, r.echoed, r.reason]), [['alpha', 'ALPHA', undefined], ['beta', 'BETA', undefined]]);
  for (const r of results) assert.ok(r.pid > 0 && r.pid !== process.pid, `measured in another process (pid ${r.pid})`);
});

test("a test kind's failure in the child comes back on its keys, the sweep's way", async () => {
  const { results } = await launch({ words: ['alpha', 'beta', 'gamma'], crashOn: 'beta' });
  assert.deepEqual(results.map((r) => [r.word, r.echoed]), [['alpha', 'ALPHA'], ['beta', null], ['gamma', null]]);
  assert.equal(results[1]?.reason, "echo-child was told to fail on 'beta'");
});

test('a kind the launch names no module for is unknown to the child, with the registered kinds named', async () => {
  const { results } = await launch({ words: ['alpha'], crashOn: null }, null);
  assert.match(results[0]?.reason ?? '', /no child job is registered for kind 'echo-child' \(registered: classify, generate, train, load\)/);
});

test('a child job module that is not a file: URL is refused, never resolved or fetched', async () => {
  for (const module of ['node:fs', 'https://example.com/job.js', 'echo-child-job']) {
    const { results } = await launch({ words: ['alpha'], crashOn: null }, module);
    assert.equal(results[0]?.reason, `the child job module must be a file: URL, not '${module}'`, module);
  }
});
