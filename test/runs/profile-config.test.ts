import assert from 'node:assert/strict';
import { test } from 'node:test';
import { resolveRunConfig } from '../../src/scenarios/classify/classify-run.js';
import { defaultRegistry } from '../../engines/registry.js';

test('--profile is kept in the resolved config, so a rerun of the stored config profiles again; absent without it', () => {
  const config = resolveRunConfig({ profile: true }, {}, defaultRegistry);
  assert.equal(config.profile, true);
  const stored = JSON.parse(JSON.stringify(config));
  assert.equal(resolveRunConfig(stored, {}, defaultRegistry).profile, true, 'rerun: the stored config resolved again');
  assert.equal('profile' in resolveRunConfig({}, {}, defaultRegistry), false, 'a run without --profile records no field');
});
