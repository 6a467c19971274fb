/**
 * Issue 47, point 7: the API takes every option the CLI takes. Each flag of
 * each scenario's options table is a field of its dashboard request
 * (`POST /api/<route>`), or one of the few CLI-only flags that say why
 * (CLI_ONLY_FLAGS); `task` and `saveOutputs` were refused as unknown fields
 * while the docs said the API took the CLI's options.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { isCliFlagSlot, type FlagSpec } from '../../src/core/flag-spec.js';
import { lookupName } from '../../src/core/name-lookup.js';
import { FieldError } from '../../src/core/field-error.js';
import { CLI_ONLY_FLAGS, requestFieldKinds, requestFieldsOfFlags } from '../../src/scenarios/request-fields.js';
import { registeredScenarios, scenarioByCommand, type RequestContext, type ScenarioApi } from '../../src/scenarios/scenario-registry.js';
import '../../src/runs/builtin-scenarios.js';
import { defaultRegistry } from '../../engines/registry.js';

const ctx: RequestContext = { guard: { check: (_field, path) => path, checkModel: (_field, path) => path }, out: '/tmp/api-takes-cli-options', registry: defaultRegistry };

async function apiOf(command: string): Promise<ScenarioApi> {
  const api = await scenarioByCommand(command).api?.load();
  assert.ok(api?.start, `the API starts no ${command} run`);
  return api;
}

test("every flag of every scenario's options table is a field of its API request, or a CLI-only flag with its reason", async () => {
  const missing: string[] = [];
  for (const scenario of registeredScenarios()) {
    const api = await scenario.api?.load();
    if (!api?.start) {
      missing.push(`${scenario.command}: no request starts one`);
      continue;
    }
    const fields = requestFieldsOfFlags(scenario.options, api.start.fields);
    const flags = scenario.options.flags.filter((f): f is FlagSpec => !isCliFlagSlot(f));
    for (const f of flags) if (!fields.has(f.name) && lookupName(CLI_ONLY_FLAGS, f.name) === undefined) missing.push(`${scenario.command} --${f.name}`);
  }
  assert.deepEqual(missing, [], 'flags the CLI takes and the API does not');
});

test('the CLI-only list is short, and each of its flags is a flag of some command', () => {
  const names = Object.keys(CLI_ONLY_FLAGS);
  assert.ok(names.length <= 6, `${names.length} CLI-only flags: ${names.join(', ')}`);
  const all = new Set(registeredScenarios().flatMap((s) => s.options.flags.filter((f): f is FlagSpec => !isCliFlagSlot(f)).map((f) => f.name)));
  assert.deepEqual(names.filter((n) => !all.has(n)), []);
  for (const n of names) assert.ok((lookupName(CLI_ONLY_FLAGS, n) ?? '').length > 0, `--${n} says why`);
});

test("the field each flag is said to go in is one the request takes (an object field's key under it)", async () => {
  for (const scenario of registeredScenarios()) {
    const api = await scenario.api?.load();
    if (!api?.start) continue;
    const known = requestFieldKinds(scenario.options, api.start.fields);
    for (const [flag, fields] of requestFieldsOfFlags(scenario.options, api.start.fields)) {
      for (const field of fields.split(', ')) assert.ok(known.has(field.split('.')[0] ?? field), `${scenario.command} --${flag} → ${field}`);
    }
  }
});

test('run takes task, saveOutputs and skipBadRows, as --task, --save-outputs and --skip-bad-rows', async () => {
  const api = await apiOf('run');
  const config = api.start?.parse({ engines: ['onnx-cpu'], task: 'feature-extraction', saveOutputs: true, skipBadRows: true }, ctx) as unknown as Record<string, unknown>;
  assert.equal(config['task'], 'feature-extraction');
  assert.equal(config['saveOutputs'], true);
  assert.equal(config['skipBadRows'], true);
});

test('generate, load and train take engineOptions as --engine-options: each engine given options runs as its variants', async () => {
  for (const command of ['generate', 'load', 'train']) {
    const api = await apiOf(command);
    const base = command === 'load' ? { rates: [10] } : {};
    const config = api.start?.parse({ ...base, engines: ['onnx-cpu'], engineOptions: ['onnx-cpu:graphOptimizationLevel=disabled|all'] }, ctx) as unknown as { engines: string[] };
    assert.deepEqual(config.engines, ['onnx-cpu [graphOptimizationLevel=disabled]', 'onnx-cpu [graphOptimizationLevel=all]'], command);
    assert.throws(
      () => api.start?.parse({ ...base, engineOptions: ['onnx-cpu:graphOptimizationLevel=disabled'] }, ctx),
      (err: unknown) => err instanceof FieldError && err.field === 'engineOptions' && /needs engines/.test(err.message),
      `${command}: options without engines`,
    );
    assert.throws(
      () => api.start?.parse({ ...base, engines: ['onnx-cpu'], engineOptions: ['onnx-cpu:nope=1'] }, ctx),
      (err: unknown) => err instanceof FieldError && err.field === 'engineOptions',
      `${command}: an unknown key`,
    );
  }
});

test("train's request is checked as the CLI's flags are, each mistake against its own field", async () => {
  const api = await apiOf('train');
  const config = api.start?.parse({ steps: 5, warmSteps: 0, optimizer: 'adam', learningRate: 0.1, batchSizes: [4], architectures: ['tiny'] }, ctx) as unknown as Record<string, unknown>;
  assert.equal(config['steps'], 5);
  assert.equal(config['optimizer'], 'adam');
  assert.equal((config['architectures'] as unknown[]).length, 1);
  assert.equal(config['out'], ctx.out);
  for (const [body, field] of [
    [{ steps: 0 }, 'steps'],
    [{ learningRate: 0 }, 'learningRate'],
    [{ optimizer: 'lion' }, 'optimizer'],
    [{ architectures: ['nope=1'] }, 'architectures'],
  ] as const) {
    assert.throws(() => api.start?.parse(body, ctx), (err: unknown) => err instanceof FieldError && err.field === field, JSON.stringify(body));
  }
});
