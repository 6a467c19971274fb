/**
 * docs/dashboard.md lists the fields of each `POST /api/<route>` request,
 * and they are the fields the request takes (the request of `run` lacked
 * `rounds`, `profile`, `task` and `saveOutputs` there while it took them).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { requestFieldKinds } from '../../src/scenarios/request-fields.js';
import { registeredScenarios } from '../../src/scenarios/scenario-registry.js';
import '../../src/runs/builtin-scenarios.js';

const DOC = readFileSync(new URL('../../../docs/dashboard.md', import.meta.url), 'utf8');

test("docs/dashboard.md's line for each API request names every field it takes, and no other", async () => {
  const wrong: string[] = [];
  for (const scenario of registeredScenarios()) {
    const route = scenario.api?.route;
    const api = await scenario.api?.load();
    if (route == null || !api?.start) continue;
    const line = DOC.split('\n').find((l) => l.startsWith(`- \`POST /api/${route}\``));
    if (line === undefined) {
      wrong.push(`no line for POST /api/${route}`);
      continue;
    }
    const known = [...requestFieldKinds(scenario.options, api.start.fields).keys()].filter((f) => f !== 'compareWith');
    for (const field of known) if (!new RegExp(`\`${field}\\b`).test(line)) wrong.push(`${route}: ${field} not listed`);
    // Every backticked camelCase name opening a code span is a field (`"p99=50ms"` and `--threads` are not names).
    for (const m of line.matchAll(/`([a-z][A-Za-z]*)\b/g)) if (m[1] !== undefined && m[1] !== 'compareWith' && !known.includes(m[1]) && !['null', 'run', 'generate', 'load', 'train'].includes(m[1])) wrong.push(`${route}: lists ${m[1]}, which it does not take`);
  }
  assert.deepEqual(wrong, []);
});
