/**
 * A scenario's run is handed its launchers (launchers sit above
 * scenarios): the history's recorder and the public API's runs give the
 * built-in ones where the caller gave none, and keep a caller's own. Without
 * them a run that isolates its cells fails loudly rather than measuring in
 * this process unasked.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { BUILTIN_LAUNCHERS, withBuiltinLaunchers } from '../../src/runs/builtin-launchers.js';
import { isolatedOf, launchersOf } from '../../src/scenarios/scenario-registry.js';
import type { Launcher } from '../../src/core/launch-jobs.js';

test('withBuiltinLaunchers gives the isolated launcher and the set, and keeps the ones a caller gave', () => {
  const given = withBuiltinLaunchers({}, {});
  assert.equal(typeof given.isolated, 'function');
  assert.equal(given.launchers, BUILTIN_LAUNCHERS);
  const own: Launcher = async () => undefined;
  const kept = withBuiltinLaunchers({}, { isolated: own });
  assert.equal(kept.isolated, own);
});

test('a run given no launchers fails with a programming error naming the hook, never measuring elsewhere', () => {
  assert.throws(() => isolatedOf({}), /no isolated launcher \(hooks\.isolated\)/);
  assert.throws(() => launchersOf({}), /no launchers \(hooks\.launchers\)/);
});
