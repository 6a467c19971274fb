import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { UserError } from '../../../src/core/errors.js';
import { checkRange, OPTION_RANGES } from '../../../src/core/option-ranges.js';
import { startRequest } from '../../../src/dashboard/run-request.js';
import { scenarioByCommand, type RequestContext } from '../../../src/scenarios/scenario-registry.js';
import { CLASSIFY_API } from '../../../src/runs/classify-request.js';
import { FieldError } from '../../../src/core/field-error.js';
import { PathGuard } from '../../../src/dashboard/path-guard.js';
import { resolveRunConfig } from '../../../src/runs/classify-run.js';
import { isCleanUserError, runCli } from '../../helpers/cli.js';
import { testOutputDir } from '../../helpers/test-cache.js';
import { defaultRegistry } from '../../../engines/registry.js';

/** The dashboard's `POST /api/runs` check, with the run scenario's API part at hand. */
const parseRunRequest = (body: unknown, ctx: RequestContext) => startRequest(scenarioByCommand('run'), CLASSIFY_API, body, ctx);

test('every number has an upper bound, checked with the same table by the CLI, the API and the library', async () => {
  // The table: every entry has a finite range and says its unit.
  for (const [field, range] of Object.entries(OPTION_RANGES)) {
    assert.equal(range.field, field);
    assert.ok(Number.isFinite(range.max) && range.max > range.min, field);
    assert.throws(() => checkRange(field, range.max * 10 + 1), UserError, field);
    assert.equal(checkRange(field, range.max), range.max, field);
  }

  // CLI: the flag is named with its range, before anything is loaded.
  const cli: [string[], RegExp][] = [
    [['run', '--limit', '99999999999999999999'], /--limit must be a whole number from 1 to 10000000 rows, got 99999999999999999999/],
    [['run', '--min-time', '1e9'], /--min-time must be a number from 0 to 3600 s, got 1e9/],
    [['run', '--batch-sizes', '1,100000'], /--batch-sizes must be a whole number from 1 to 4096/],
    [['run', '--warmup', '1e12'], /--warmup must be a whole number ≥ 0|--warmup must be a whole number from 0/],
    [['generate', '--new-tokens', '10000000'], /--new-tokens must be a whole number from 1 to 65536 tokens/],
  ];
  for (const [args, message] of cli) {
    const r = await runCli(args, { timeoutMs: 60_000 });
    assert.ok(isCleanUserError(r), `${args.join(' ')}: ${r.stderr}`);
    assert.equal(r.code, 2);
    assert.match(r.stderr, message);
    assert.doesNotMatch(r.stderr, /row count of 0 or more/);
  }

  // API: the field is named, in the field's unit.
  const guard = new PathGuard(testOutputDir('bad-input-option-ranges'));
  const ctx = { guard, registry: defaultRegistry, out: join(guard.root, 'out') };
  const api: [unknown, string, RegExp][] = [
    [{ stop: { minTimeMs: 1e12, maxTimeMs: 2e12 } }, 'stop.minTimeMs', /stop\.minTimeMs must be a number from 0 to 3600000 ms, got 1000000000000/],
    [{ limit: 1e20 }, 'limit', /limit must be a whole number from 1 to 10000000 rows/],
    [{ batchSizes: [1, 5000] }, 'batchSizes', /batchSizes must be a whole number from 1 to 4096/],
    [{ warmupBatches: 1e9 }, 'warmupBatches', /warmupBatches must be a whole number from 0 to 10000/],
    [{ maxCv: 1e9 }, 'maxCv', /maxCv must be a number above 0 and at most 100/],
  ];
  for (const [body, field, message] of api) {
    assert.throws(() => parseRunRequest(body, ctx), (err: unknown) => err instanceof FieldError && err.field === field && message.test(err.message), JSON.stringify(body));
  }

  // Library callers hit the same table.
  assert.throws(() => resolveRunConfig({ stop: { minTimeMs: 1e12, minBatches: 1, maxTimeMs: 2e12 } }, {}, defaultRegistry), /stop\.minTimeMs must be a number from 0 to 3600000 ms/);
  assert.doesNotThrow(() => resolveRunConfig({ limit: 10_000_000, stop: { minTimeMs: 3_600_000, minBatches: 1, maxTimeMs: 3_600_000 } }, {}, defaultRegistry));
});

test('--help documents the range of every number flag', async () => {
  const r = await runCli(['run', '--help']);
  assert.equal(r.code, 0);
  assert.match(r.stdout, /--limit N .*range 1–10000000 rows/);
  assert.match(r.stdout, /--min-time S .*range 0–3600 s/);
});
