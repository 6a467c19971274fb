import { test } from 'node:test';
import assert from 'node:assert/strict';
import { childJob, registerChildJob } from '../../src/core/launch-jobs.js';
import { loadChildJobs } from '../../src/scenarios/scenario-jobs.js';

// As the child entry does: every registered scenario's child jobs, imported as its registration says.
await loadChildJobs();

test('every built-in scenario registers its child job, so the one child entry can run any of them by kind', () => {
  for (const kind of ['classify', 'generate', 'train', 'load']) assert.equal(typeof childJob(kind), 'function', kind);
});

test('an unknown kind names the registered ones, and a kind cannot be registered twice', () => {
  assert.throws(() => childJob('no-such-scenario'), /no child job is registered for kind 'no-such-scenario' \(registered: classify, generate, train, load\)/);
  assert.throws(() => registerChildJob('classify', async () => undefined), /already registered/);
});
