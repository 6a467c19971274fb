/**
 * The script Playwright starts instead of Chromium (engines/browser/chromium.ts
 * launchScript): Chromium keeps only the last `--disable-features` it is given,
 * so the script must fold playwright-core's list and inferbench's into one
 * switch, and pass every other argument on untouched. Run here on a stand-in
 * "Chromium" that writes down the arguments it received.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { chmodSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DISABLED_FEATURES, launchScript } from '../../../engines/browser/chromium.js';
import { testOutputDir } from '../../helpers/test-cache.js';

test('the launch script folds every --disable-features into one switch with inferbench\'s features, and passes other arguments as they were', () => {
  const dir = testOutputDir('chromium-launch-script');
  const received = join(dir, 'args.txt');
  const fake = join(dir, 'fake-chromium');
  writeFileSync(fake, `#!/bin/sh\nfor a do printf '%s\\n' "$a"; done > '${received}'\n`);
  chmodSync(fake, 0o755);
  const script = join(dir, 'launch.sh');
  // No parent-death prefix: the folding is the subject, not setpriv.
  writeFileSync(script, launchScript(fake, []));
  chmodSync(script, 0o755);
  const args = ['--headless', '--disable-features=Translate,MediaRouter', "--user-agent=a b 'c' \"d\"", 'about:blank', '--disable-features=Extra'];
  const r = spawnSync(script, args, { encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  assert.deepEqual(readFileSync(received, 'utf8').split('\n').slice(0, -1), [
    `--disable-features=${[...DISABLED_FEATURES, 'Translate', 'MediaRouter', 'Extra'].join(',')}`,
    '--headless',
    "--user-agent=a b 'c' \"d\"",
    'about:blank',
  ]);
  // Without a list of Playwright's, inferbench's features alone.
  assert.equal(spawnSync(script, ['--headless'], { encoding: 'utf8' }).status, 0);
  assert.deepEqual(readFileSync(received, 'utf8').split('\n').slice(0, -1), [`--disable-features=${DISABLED_FEATURES.join(',')}`, '--headless']);
});
