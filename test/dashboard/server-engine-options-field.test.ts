import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startRequest } from '../../src/dashboard/run-request.js';
import { scenarioByCommand, type RequestContext } from '../../src/scenarios/scenario-registry.js';
import { CLASSIFY_API } from '../../src/runs/classify-request.js';
import { PathGuard } from '../../src/dashboard/path-guard.js';
import { defaultRegistry } from '../../engines/registry.js';

const parseRunRequest = (body: unknown, ctx: RequestContext) => startRequest(scenarioByCommand('run'), CLASSIFY_API, body, ctx);

test('the dashboard API takes engineOptions as run takes --engine-options, checked against the same tables', () => {
  const ctx = { guard: new PathGuard(process.cwd()), registry: defaultRegistry, out: 'inferbench-out' } as unknown as Parameters<typeof parseRunRequest>[1];
  const ok = parseRunRequest({ engines: ['onnx-cpu'], engineOptions: ['onnx-cpu:graphOptimizationLevel=disabled|all'] }, ctx);
  assert.deepEqual((ok.config as { engineOptions?: string[] }).engineOptions, ['onnx-cpu:graphOptimizationLevel=disabled|all']);
  assert.throws(() => parseRunRequest({ engines: ['onnx-cpu'], engineOptions: ['onnx-cpu:level=1'] }, ctx), (err: unknown) => /onnx-cpu has no option "level"/.test(String(err)) && /graphOptimizationLevel, executionMode/.test(String((err as { fix?: string }).fix)));
  assert.throws(() => parseRunRequest({ engines: ['onnx-cpu'], engineOptions: ['onnx-wasm:numThreads=2'] }, ctx), /not in engines/);
});
