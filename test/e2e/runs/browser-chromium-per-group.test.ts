import { test } from 'node:test';
import assert from 'node:assert/strict';
import { browserGroupLauncher } from '../../../src/runs/browser-group-launcher.js';
import { chromiumChildren, collect, NO_CHROMIUM, tinyBrowserGroup } from '../../helpers/browser.js';

test('rounds of one load group share one Chromium, each in a fresh page; close() ends it', { skip: NO_CHROMIUM }, async () => {
  const group = await tinyBrowserGroup('browser-onnx-wasm');
  const launcher = browserGroupLauncher();
  const { rounds, hooks } = collect();
  try {
    await launcher.run(group, hooks);
    const first = await chromiumChildren();
    await launcher.run({ ...group, round: 1 }, hooks);
    assert.equal(first.length, 1, 'one Chromium for the group');
    assert.deepEqual(await chromiumChildren(), first, 'the second round reused it');
  } finally {
    await launcher.close?.();
  }
  assert.deepEqual(rounds.map((r) => r.kind), ['measured', 'measured']);
  // Each round loaded its own session: a fresh page, so a fresh runtime start-up and session build.
  const builds = rounds.map((r) => (r.kind === 'measured' ? r.figures.session.browser?.coldStart.sessionBuildMs : undefined));
  assert.ok(builds.every((b) => typeof b === 'number' && b > 0));
  assert.deepEqual(await chromiumChildren(), []);
});
