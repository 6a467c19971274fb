import { test } from 'node:test';
import assert from 'node:assert/strict';
import { browserLauncher } from '../../../src/launchers/browser/browser-launcher.js';
import { classifyPageLaunch } from '../../../src/runs/benchmark.js';
import { collect, NO_CHROMIUM, tinyBrowserGroup } from '../../helpers/browser.js';

// The page throws what Chromium throws when a wasm heap cannot grow; a real model that large would take minutes to build.
test('a model too large for the page memory is an errored cell that says so', { skip: NO_CHROMIUM }, async () => {
  const group = await tinyBrowserGroup('browser-onnx-wasm');
  const { rounds, hooks } = collect();
  const launcher = browserLauncher({ testHooks: { simulateOpenFailure: 'RangeError: WebAssembly.Memory(): could not allocate memory' } });
  try {
    await launcher.run(classifyPageLaunch(group), hooks, undefined);
  } finally {
    await launcher.close();
  }
  const [round] = rounds;
  assert.equal(round?.kind, 'failed');
  if (round?.kind !== 'failed') return;
  assert.equal(round.cell.state, 'errored');
  assert.match(round.cell.reason, /the model does not fit in the page's memory.*could not allocate memory/);
});
