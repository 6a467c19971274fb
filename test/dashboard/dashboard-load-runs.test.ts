/**
 * Load runs on the dashboard. Its Compare offers the runs `inferbench compare`
 * matches: a load run of --rates alone (no peak search) next to its exact
 * re-run shares its engine × rate rows. The picker matched on peaks only, so
 * it said "No other benchmark shares a cell" while the CLI matched 2 rows.
 * Its rate table shows the offered rate beside the achieved one, as the
 * terminal does ("rate 50.0, achieved 54.0" read as a fault without it).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import '../../src/runs/builtin-scenarios.js';
import { scenarioByCommand } from '../../src/scenarios/scenario-registry.js';
import { compareServerRuns } from '../../src/scenarios/load/load-comparison.js';
import type { LoadRunRecord } from '../../src/scenarios/load/load-results.js';
import { runOf } from '../helpers/round-cells.js';
import { loadViewsJson } from '../../src/scenarios/load/load-dashboard-views.js';

function probe(targetRps: number) {
  const latency = { mean: 5, p50: 5, p90: 6, p95: 7, p99: 8, p999: 9, max: 9, censoredFromMs: null };
  const summary = {
    requests: 100, completedRequests: 100, unfinished: 0, offeredRps: targetRps * 1.05, achievedRps: targetRps * 1.04, measuredMs: 2000, latency,
    queueWait: { mean: 1, p99: 2 }, parts: { queueMs: 1, prepareMs: 1, engineMs: 3, postMs: 0 }, batchSizes: { '1': 100 },
    queueDepth: { firstQuarter: 0, lastQuarter: 0 }, slo: null, verdict: { status: 'VALID', reasons: [] },
  };
  return { round: 0, targetRps, purpose: 'rate', warmupRequests: 0, endedEarly: null, samples: {}, summary, passed: null };
}

/** A load run of `--rates 20,50` on onnx-cpu: no peak search. */
function ratesOnlyRun(id: string): LoadRunRecord {
  const cell = { model: 'm', engine: 'onnx-cpu', batchSize: 1, requestedThreads: null, state: 'completed', openMs: 1, rounds: 1, probes: [probe(20), probe(50)], peak: null, serviceMs: { batchOne: 1, maxBatch: 1 }, session: { engine: 'onnx-cpu', backend: 'cpu' } };
  return { ...runOf([]), id, models: [{ name: 'm', source: '/m', sizeBytes: 1, notes: [] }], kind: 'server', cells: [cell] } as unknown as LoadRunRecord;
}

test('two load runs of --rates alone share as many keys on the dashboard as `inferbench compare` matches rows', () => {
  const a = ratesOnlyRun('a');
  const b = ratesOnlyRun('b');
  const keys = scenarioByCommand('load').compare?.keys;
  assert.ok(keys !== undefined, 'the load scenario says what its runs match on');
  const own = keys(a);
  const common = [...keys(b)].filter((k) => own.has(k)).length;
  const cli = compareServerRuns(a, b);
  assert.equal(cli.rates.length, 2, 'the CLI matches both rates');
  assert.equal(common, cli.rates.length + cli.peaks.filter((p) => p.a !== null && p.b !== null).length);
});

test('the dashboard\'s load rate table shows the rate asked, offered and achieved side by side', async () => {
  const web = new URL('../../../src/dashboard/web/panels.js', import.meta.url).href;
  const { belowHtml } = (await import(web)) as { belowHtml: (blocks: unknown) => string };
  const views = loadViewsJson(ratesOnlyRun('a')) as { panels: { load: { below: unknown[] } } };
  const html = belowHtml(views.panels.load.below);
  assert.equal((html.match(/<table/g) ?? []).length, 1, 'no peak table for a run of --rates alone');
  const headers = [...html.matchAll(/<th[^>]*>([^<]*)<\/th>/g)].map((m) => m[1]);
  assert.deepEqual(headers.slice(0, 4), ['engine', 'rate', 'offered', 'achieved']);
  const first = [...(/<tr><td>.*?<\/tr>/.exec(html)?.[0] ?? '').matchAll(/<td[^>]*>([^<]*)<\/td>/g)].map((m) => m[1]);
  assert.deepEqual(first.slice(1, 4), ['20.0', '21.0', '20.8'], 'asked 20, offered 21, achieved 20.8 req/s');
});
