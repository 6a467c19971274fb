import { test } from 'node:test';
import assert from 'node:assert/strict';
import { browserLauncher } from '../../../src/launchers/browser/browser-launcher.js';
import { classifyPageLaunch } from '../../../src/runs/benchmark.js';
import { chromiumChildren, collect, NO_CHROMIUM, tinyBrowserGroup } from '../../helpers/browser.js';
import { commandOf, descendantsOf } from '../../helpers/process-tree.js';
import { DISABLED_FEATURES } from '../../../engines/browser/chromium.js';

test('rounds of one open group share one Chromium, each in a fresh page; close() ends it', { skip: NO_CHROMIUM }, async () => {
  const group = await tinyBrowserGroup('browser-onnx-wasm');
  const launcher = browserLauncher();
  const { rounds, hooks } = collect();
  try {
    await launcher.run(classifyPageLaunch(group), hooks, undefined);
    const first = await chromiumChildren();
    // Chromium itself got one feature list: inferbench's features (no omnibox WebUI renderer) and playwright-core's, not one of them.
    const browser = descendantsOf(process.pid, /chrom/i).map(commandOf).find((c) => /--remote-debugging-pipe/.test(c) && !/--type=/.test(c)) ?? '';
    const lists = browser.split(' ').filter((a) => a.startsWith('--disable-features='));
    assert.equal(lists.length, 1, browser);
    const names = lists[0]?.slice('--disable-features='.length).split(',') ?? [];
    for (const feature of DISABLED_FEATURES) assert.ok(names.includes(feature), `${feature} in ${lists[0]}`);
    assert.ok(names.length > DISABLED_FEATURES.length, `playwright-core's own features kept: ${lists[0]}`);
    await launcher.run(classifyPageLaunch({ ...group, round: 1 }), hooks, undefined);
    assert.equal(first.length, 1, 'one Chromium for the group');
    assert.deepEqual(await chromiumChildren(), first, 'the second round reused it');
  } finally {
    await launcher.close();
  }
  assert.deepEqual(rounds.map((r) => r.kind), ['measured', 'measured']);
  // Each round opened its own session: a fresh page, so a fresh runtime start-up and session build.
  const builds = rounds.map((r) => (r.kind === 'measured' ? r.figures.session.browser?.coldStart.sessionBuildMs : undefined));
  assert.ok(builds.every((b) => typeof b === 'number' && b > 0));
  assert.deepEqual(await chromiumChildren(), []);
});
