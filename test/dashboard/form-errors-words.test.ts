/**
 * The Add-benchmark form shows the server's refusals in the form's words:
 * the field by its label, a time in seconds, each thing said once. It showed
 * "stop.maxTimeMs must be a number ≥ 0, got -1000 — use milliseconds for
 * times" under "Max time per cell (s)", "limit must be a number or null —
 * e.g. limit: 256", and the threads bound twice (error, then fix).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { FieldError } from '../../src/core/field-error.js';
import { PathGuard } from '../../src/dashboard/path-guard.js';
import { startRequest } from '../../src/dashboard/run-request.js';
import '../../src/runs/builtin-scenarios.js';
import { scenarioByCommand } from '../../src/scenarios/scenario-registry.js';
import { CLASSIFY_API } from '../../src/runs/classify-request.js';
import { testOutputDir } from '../helpers/test-cache.js';
import { defaultRegistry } from '../../engines/registry.js';

const WEB = new URL('../../../src/dashboard/web/', import.meta.url);

/** The label the form gives a field, read from dashboard.html. */
function labelOf(html: string, field: string): string {
  const at = html.indexOf(`data-field="${field}"`);
  const label = /<label[^>]*>([^<]*)</.exec(html.slice(at))?.[1]?.trim();
  assert.ok(at >= 0 && label, `the form has a labelled ${field} field`);
  return label;
}

test('form errors name the field by its label, in the form\'s units, once', async () => {
  const { formErrorText } = (await import(new URL('form-errors.js', WEB).href)) as { formErrorText: (data: unknown, label: string | null) => string };
  const html = readFileSync(new URL('dashboard.html', WEB), 'utf8');
  const guard = new PathGuard(testOutputDir('form-errors-words'));
  const ctx = { guard, registry: defaultRegistry, out: join(guard.root, 'out') };
  const shown = (body: Record<string, unknown>, field: string): string => {
    try {
      startRequest(scenarioByCommand('run'), CLASSIFY_API, body, ctx);
    } catch (err) {
      assert.ok(err instanceof FieldError, String(err));
      assert.equal(err.field, field);
      return formErrorText({ field: err.field, error: err.message, fix: err.fix }, labelOf(html, field));
    }
    assert.fail(`${JSON.stringify(body)} was accepted`);
  };
  assert.equal(shown({ stop: { maxTimeMs: -1000 } }, 'stop.maxTimeMs'), 'Max time per cell must be at least 0 s, got -1 s');
  assert.equal(shown({ limit: 'abc' }, 'limit'), 'Rows per cell must be a number');
  const threads = shown({ threads: [999] }, 'threads');
  assert.match(threads, /^Core counts must be a whole number from 1 to/);
  assert.equal(threads.split('from 1 to').length, 2, `the bound is said once: ${threads}`);
  for (const [body, field] of [[{ threads: [0] }, 'threads'], [{ stop: { minBatches: 'x' } }, 'stop.minBatches'], [{ rounds: 0 }, 'rounds'], [{ batchSizes: ['x'] }, 'batchSizes']] as const) {
    const text = shown(body, field);
    assert.doesNotMatch(text, /milliseconds|e\.g\.|stop\.|null|\bpass \w+ /, `${field}: ${text}`);
    assert.ok(text.startsWith(labelOf(html, field).replace(/\s*\(.*\)$/, '')), `${field} is named by its label: ${text}`);
  }
});
