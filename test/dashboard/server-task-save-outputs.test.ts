/**
 * Issue 47, point 7: the dashboard API takes every option the CLI takes;
 * `task` and `saveOutputs` (--task, --save-outputs) were refused as unknown fields.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startRequest } from '../../src/dashboard/run-request.js';
import { scenarioByCommand, type RequestContext } from '../../src/scenarios/scenario-registry.js';
import { CLASSIFY_API } from '../../src/runs/classify-request.js';
import { PathGuard } from '../../src/dashboard/path-guard.js';
import { defaultRegistry } from '../../engines/registry.js';

const parseRunRequest = (body: unknown, ctx: RequestContext) => startRequest(scenarioByCommand('run'), CLASSIFY_API, body, ctx);

test('the dashboard API takes task and saveOutputs as the CLI takes --task and --save-outputs', () => {
  const ctx = { guard: new PathGuard(process.cwd()), registry: defaultRegistry, out: 'inferbench-out' } as unknown as Parameters<typeof parseRunRequest>[1];
  const ok = parseRunRequest({ task: 'feature-extraction', saveOutputs: true }, ctx);
  assert.equal((ok.config as { task?: string }).task, 'feature-extraction');
  assert.equal((ok.config as { saveOutputs?: boolean }).saveOutputs, true);
  assert.throws(() => parseRunRequest({ task: 'translation' }, ctx), /task/u);
});
