import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startRequest } from '../../src/dashboard/run-request.js';
import { scenarioByCommand, type RequestContext } from '../../src/scenarios/scenario-registry.js';
import { CLASSIFY_API } from '../../src/runs/classify-request.js';
import { FieldError } from '../../src/core/field-error.js';
import { PathGuard } from '../../src/dashboard/path-guard.js';
import { defaultRegistry } from '../../engines/registry.js';

/** The dashboard's `POST /api/runs` check, with the run scenario's API part at hand. */
const parseRunRequest = (body: unknown, ctx: RequestContext) => startRequest(scenarioByCommand('run'), CLASSIFY_API, body, ctx);

test('the dashboard API takes calibrationRows and calibrationMethod as the CLI takes --calibration-rows and --calibration-method, with the same range', () => {
  const ctx = { guard: new PathGuard(process.cwd()), registry: defaultRegistry, out: 'inferbench-out' } as unknown as Parameters<typeof parseRunRequest>[1];
  const ok = parseRunRequest({ dtypes: ['fp32', 'q8-static'], calibrationRows: 64, calibrationMethod: 'percentile' }, ctx);
  assert.equal((ok.config as { calibrationRows?: number }).calibrationRows, 64);
  assert.equal((ok.config as { calibrationMethod?: string }).calibrationMethod, 'percentile');
  const defaults = parseRunRequest({ dtypes: ['q8-static'] }, ctx);
  assert.equal((defaults.config as { calibrationRows?: number }).calibrationRows, 128);
  assert.throws(() => parseRunRequest({ calibrationRows: 0 }, ctx), (err: unknown) => err instanceof FieldError && err.field === 'calibrationRows' && /calibrationRows must be a whole number from 1 to 1000000 rows/.test(err.message));
  assert.throws(() => parseRunRequest({ calibrationMethod: 'entropy' }, ctx), (err: unknown) => err instanceof FieldError && err.field === 'calibrationMethod');
});
