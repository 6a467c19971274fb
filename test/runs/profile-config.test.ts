import assert from 'node:assert/strict';
import { test } from 'node:test';
import { resolveRunConfig } from '../../src/runs/classify-run.js';

test('--profile is kept in the resolved config, so a rerun of the stored config profiles again; absent without it', () => {
  const config = resolveRunConfig({ profile: true });
  assert.equal(config.profile, true);
  const stored = JSON.parse(JSON.stringify(config));
  assert.equal(resolveRunConfig(stored).profile, true, 'rerun: the stored config resolved again');
  assert.equal('profile' in resolveRunConfig({}), false, 'a run without --profile records no field');
});
