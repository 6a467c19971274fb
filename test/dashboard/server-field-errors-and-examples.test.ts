import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { FieldError } from '../../src/core/field-error.js';
import { PathGuard } from '../../src/dashboard/path-guard.js';
import { startRequest } from '../../src/dashboard/run-request.js';
import { scenarioByCommand, type RequestContext } from '../../src/scenarios/scenario-registry.js';
import { CLASSIFY_API } from '../../src/runs/classify-request.js';
import { GENERATE_API } from '../../src/scenarios/generate/generate-request.js';
import { testOutputDir } from '../helpers/test-cache.js';
import { defaultRegistry } from '../../engines/registry.js';

const parseRunRequest = (body: unknown, ctx: RequestContext) => startRequest(scenarioByCommand('run'), CLASSIFY_API, body, ctx);
const parseGenerateRequest = (body: unknown, ctx: RequestContext) => startRequest(scenarioByCommand('generate'), GENERATE_API, body, ctx);

/** The FieldError `fn` throws, or null. */
function fieldErrorOf(fn: () => unknown): FieldError | null {
  try {
    fn();
    return null;
  } catch (err) {
    if (err instanceof FieldError) return err;
    throw err;
  }
}

test('the API names the field of a bad generate value (not "body"), and every example a fix shows passes that field\'s own check', () => {
  const guard = new PathGuard(testOutputDir('server-field-errors'));
  const ctx = { guard, registry: defaultRegistry, out: join(guard.root, 'out') };
  // Bad newTokens, runs and warmupRuns were all reported against "body".
  for (const [field, value] of [['newTokens', [0]], ['runs', 0], ['warmupRuns', -1], ['promptLengths', [0]], ['batchSizes', [0]]] as const) {
    const err = fieldErrorOf(() => parseGenerateRequest({ [field]: value }, ctx));
    assert.equal(err?.field, field, `${field}: ${err?.message}`);
  }
  // A value of the wrong type for each field; the fix's example, sent back, must not fail that field's check.
  const requests: [string, (body: unknown) => unknown, readonly string[]][] = [
    ['run', (b) => parseRunRequest(b, ctx), ['engines', 'dtypes', 'models', 'architectures', 'batchSizes', 'threads', 'sequenceLengths', 'limit', 'warmupBatches', 'rounds', 'maxCv', 'calibrationRows']],
    ['generate', (b) => parseGenerateRequest(b, ctx), ['engines', 'batchSizes', 'promptLengths', 'newTokens', 'runs', 'warmupRuns', 'threads', 'promptLimit']],
  ];
  for (const [command, parse, fields] of requests) {
    for (const field of fields) {
      const err = fieldErrorOf(() => parse({ [field]: 'onnx-cpu' }));
      assert.equal(err?.field, field, `${command} ${field}: a string must be refused`);
      const example = /e\.g\. [\w.]+: (.+)$/.exec(err?.fix ?? '')?.[1];
      assert.ok(example !== undefined, `${command} ${field}: the fix shows no example: ${err?.fix}`);
      const again = fieldErrorOf(() => parse({ [field]: JSON.parse(example) }));
      assert.notEqual(again?.field, field, `${command} ${field}: the example ${example} is refused too: ${again?.message}`);
    }
  }
});
