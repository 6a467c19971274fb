import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { UserError } from '../../../src/core/errors.js';
import { parseArgs } from '../../../src/cli/args.js';
import { commands } from '../../../src/cli/command-specs.js';
import { resolveRunConfig } from '../../../src/runs/classify-run.js';
import { resolveColumns } from '../../../datasets/columns.js';
import { openDataset } from '../../../datasets/open-dataset.js';
import { startRequest } from '../../../src/dashboard/run-request.js';
import { scenarioByCommand, type RequestContext } from '../../../src/scenarios/scenario-registry.js';
import { CLASSIFY_API } from '../../../src/runs/classify-request.js';
import { FieldError } from '../../../src/core/field-error.js';
import { PathGuard } from '../../../src/dashboard/path-guard.js';
import { isCleanUserError, runCli } from '../../helpers/cli.js';
import { call, seedEntry, startTestDashboard } from '../../helpers/dashboard.js';
import { FAST_RETRY, fixture, mockHubEnv } from '../../helpers/dataset-files.js';
import { startMockHub } from '../../helpers/mock-hub.js';
import { testOutputDir } from '../../helpers/test-cache.js';
import { defaultRegistry } from '../../../engines/registry.js';

/** The dashboard's `POST /api/runs` check, with the run scenario's API part at hand. */
const parseRunRequest = (body: unknown, ctx: RequestContext) => startRequest(scenarioByCommand('run'), CLASSIFY_API, body, ctx);

/** constructor, __proto__, toString, hasOwnProperty, valueOf…: names every plain object answers to. */
const PROTOTYPE_NAMES = Object.getOwnPropertyNames(Object.prototype);

/** Runs `fn` and asserts it failed with a UserError (a clean message, never a TypeError or a hang). */
async function refused(what: string, fn: () => unknown): Promise<UserError> {
  try {
    await fn();
  } catch (err) {
    assert.ok(err instanceof UserError, `${what}: expected a UserError, got ${err instanceof Error ? err.stack : String(err)}`);
    return err;
  }
  assert.fail(`${what} was accepted`);
}

test('names of Object.prototype are unknown names to every option, API field and lookup table', async (t) => {
  assert.ok(PROTOTYPE_NAMES.includes('__proto__') && PROTOTYPE_NAMES.includes('constructor') && PROTOTYPE_NAMES.length >= 10);
  const base = testOutputDir('bad-input-prototype-names');
  const root = join(base, 'root');
  mkdirSync(root);
  const guard = new PathGuard(root);
  const hub = await startMockHub([{ id: 'acme/reviews', splits: { default: { train: [fixture('pyarrow-snappy.parquet')] } } }]);
  t.after(() => hub.close());
  const env = mockHubEnv(hub.url);

  for (const name of PROTOTYPE_NAMES) {
    // CLI flag names and values, driven through the same functions the CLI calls.
    for (const spec of commands()) await refused(`inferbench ${spec.name} --${name}`, () => parseArgs([`--${name}`, 'x'], spec.flags, spec.name));
    await refused(`--dtype ${name}`, () => resolveRunConfig({ dtypes: [name] }, { dtypes: '--dtype' }, defaultRegistry));
    await refused(`--config ${name}`, () => resolveRunConfig({ architectures: [name] }, { architectures: '--config' }, defaultRegistry));
    await refused(`--engines ${name}`, () => resolveRunConfig({ engines: [name] }, { engines: '--engines' }, defaultRegistry));
    await refused(`--reference ${name}`, () => resolveRunConfig({ parity: { reference: name, tolerance: 1e-4 } }, { reference: '--reference' }, defaultRegistry));
    await refused(`--text-column ${name}`, () => resolveColumns(['text', 'label'], { text: name }));
    await refused(`--label-column ${name}`, () => resolveColumns(['text', 'label'], { label: name }));
    await refused(`--split ${name} (Hub)`, () => openDataset('acme/reviews', { split: name, hub: env, fetch: FAST_RETRY }));
    await refused(`--dataset-config ${name} (Hub)`, () => openDataset('acme/reviews', { config: name, hub: env, fetch: FAST_RETRY }));

    // Dashboard API: as a field name, a nested field name, and as a value of the fields that take names.
    const ctx = { guard, registry: defaultRegistry, out: join(base, 'out') };
    const bodies: [string, string][] = [
      [name, `{${JSON.stringify(name)}: 1}`],
      [`stop.${name}`, `{"stop": {${JSON.stringify(name)}: 1}}`],
      [`parity.${name}`, `{"parity": {${JSON.stringify(name)}: null}}`],
      ['engines', `{"engines": [${JSON.stringify(name)}]}`],
      ['parity.reference', `{"parity": {"reference": ${JSON.stringify(name)}}}`],
      ['model', `{"model": ${JSON.stringify(name)}}`],
    ];
    for (const [field, json] of bodies) {
      const err = await refused(`API ${json}`, () => parseRunRequest(JSON.parse(json), ctx));
      assert.ok(err instanceof FieldError, json);
      assert.equal(err.field, field, json);
    }
  }

  // A few through the real CLI: no "internal error", no stack trace, no hang.
  const out = join(base, 'cli-out');
  const { id } = await seedEntry(out, '2026-01-01T00-00-00Z-000000');
  const runs: [string[], RegExp][] = [
    [['run', '--dtype', 'constructor'], /unknown dtype "constructor" in --dtype/],
    [['run', '--dtype', '__proto__'], /unknown dtype "__proto__" in --dtype/],
    [['run', '--config', 'constructor'], /unknown preset "constructor"/],
    [['run', '--engines', 'toString'], /unknown engine "toString" in --engines/],
    [['generate', '--engines', 'hasOwnProperty'], /unknown engine "hasOwnProperty"/],
    [['show', String(id), '--out', out, '--view', 'constructor'], /--view must be one of/],
  ];
  for (const [args, message] of runs) {
    const r = await runCli(args, { timeoutMs: 60_000 });
    assert.ok(isCleanUserError(r), `${args.join(' ')}: ${r.stderr}`);
    assert.equal(r.code, 2, args.join(' '));
    assert.match(r.stderr, message);
    assert.doesNotMatch(r.stderr, /internal error|could not be cloned/);
  }
  assert.ok(commands().find((c) => c.name === 'run')?.flags.some((f) => f.name === 'dtype'));

  // And through the dashboard's HTTP API: 400 naming the field, nothing queued.
  const dash = await startTestDashboard(join(base, 'dash-out'), { root, engines: ['onnx-cpu'] });
  t.after(() => dash.close());
  for (const name of ['constructor', '__proto__', 'toString']) {
    const r = await call(dash.url, 'POST', '/api/runs', `{${JSON.stringify(name)}: 1}`);
    assert.equal(r.status, 400, `${name}: ${JSON.stringify(r.body)}`);
    assert.equal(r.body.field, name);
    assert.match(r.body.error, new RegExp(`unknown field ${name}`));
  }
  assert.deepEqual((await call(dash.url, 'GET', '/api/runs')).body.entries, [], 'nothing was queued');
});
