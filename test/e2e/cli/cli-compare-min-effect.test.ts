import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { isCleanUserError, runCli } from '../../helpers/cli.js';
import { writeRunFolder } from '../../helpers/run-folders.js';
import { buildSweepRun } from '../../helpers/sweep-run.js';
import { testOutputDir } from '../../helpers/test-cache.js';

test('compare --min-effect sets the smallest change called; a percentage typed as a whole number is a user error', async () => {
  const dir = testOutputDir('compare-min-effect');
  // tfjs-wasm 1.3× slower in B: called at the default 5%, not at a 40% minimum effect.
  const a = writeRunFolder(dir, buildSweepRun({ id: 'me-a', rounds: 5 }));
  const b = writeRunFolder(dir, buildSweepRun({ id: 'me-b', rounds: 5, seedOffset: 4, slowdown: (e) => (e === 'tfjs-wasm' ? 1.3 : 1) }));
  const out = join(dir, 'out');
  const dflt = await runCli(['compare', a, b, '--out', out, '--no-png', '--details']);
  assert.equal(dflt.code, 0, dflt.stderr);
  assert.match(dflt.stdout, /tfjs-wasm · 1 thread · batch 8 .* B 1\.30× slower/u);
  const wide = await runCli(['compare', a, b, '--out', out, '--no-png', '--details', '--min-effect', '0.4']);
  assert.equal(wide.code, 0, wide.stderr);
  assert.match(wide.stdout, /tfjs-wasm · 1 thread · batch 8 .* inconclusive \(1\.\d\d×–1\.\d\d×\): p < 0\.001, but the change 30% is below the 40% minimum effect/u);
  assert.match(wide.stdout, /at\s+least 40% away from 1/u);
  const bad = await runCli(['compare', a, b, '--out', out, '--no-png', '--min-effect', '5']);
  assert.ok(isCleanUserError(bad), bad.stderr);
  assert.equal(bad.code, 2);
  assert.match(bad.stderr, /--min-effect is a fraction of the mean below 1, got 5/u);
  assert.match(bad.stderr, /fix: e\.g\. --min-effect 0\.05 for 5%/u);
});
