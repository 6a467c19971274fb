import assert from 'node:assert/strict';
import { test } from 'node:test';
import { percentileOfSorted } from '../../src/core/statistics.js';
import { drawSchedule } from '../../src/scenarios/load/arrival-schedule.js';
import { VirtualClock } from '../../src/scenarios/load/clock.js';
import { serveSchedule } from '../../src/scenarios/load/serve-loop.js';
import { virtualEngine } from '../helpers/virtual-server.js';

const STALL_AT = 5000;
const STALL_MS = 200;

/**
 * Latencies of the requests scheduled while the engine was stalled (after
 * the stalled call began, before it ended; the same window without the
 * stall for the calm run), from the scheduled arrival and from pickup.
 */
async function windowLatencies(stall: boolean, window?: number): Promise<{ fromSchedule: number[]; fromPickup: number[]; all: number[]; stallStart: number }> {
  const clock = new VirtualClock();
  const schedule = drawSchedule({ arrival: 'poisson', burstiness: 1, seed: 42, round: 0, rateRps: 100, warmupMs: 0, durationMs: 10_000, minQueries: 1 });
  const handler = virtualEngine(clock, { serviceMs: () => 2, ...(stall ? { stall: { atMs: STALL_AT, forMs: STALL_MS } } : {}) });
  const served = await serveSchedule({ clock, schedule, batcher: { maxBatch: 1, maxWaitMs: 0 }, handler, drainMs: Infinity });
  const s = served.samples;
  const stallStart = window ?? handler.stalls[0] ?? STALL_AT;
  const fromSchedule: number[] = [];
  const fromPickup: number[] = [];
  s.scheduledMs.forEach((t, i) => {
    if (t <= stallStart || t >= stallStart + STALL_MS) return;
    fromSchedule.push(s.latencyMs[i] as number);
    fromPickup.push((s.latencyMs[i] as number) - (s.enqueueLateMs[i] as number));
  });
  return { fromSchedule, fromPickup, all: s.latencyMs, stallStart };
}

const p99 = (values: readonly number[]) => percentileOfSorted([...values].sort((a, b) => a - b), 99);

test('a 200 ms engine stall raises the p99 of the requests scheduled during it: latency counts from the scheduled arrival, not from pickup', async () => {
  const stalled = await windowLatencies(true);
  const calm = await windowLatencies(false, stalled.stallStart);
  assert.ok(stalled.fromSchedule.length >= 10, `requests in the window: ${stalled.fromSchedule.length}`);
  assert.ok(p99(calm.fromSchedule) < 20, `without the stall the window's p99 is ${p99(calm.fromSchedule)} ms`);
  // The first request scheduled in the window waits out almost the whole stall.
  assert.ok(p99(stalled.fromSchedule) >= 150, `with the stall the window's p99 is ${p99(stalled.fromSchedule)} ms`);
  // Timed from pickup (a closed-loop client's view), the same requests would hide most of it.
  assert.ok(p99(stalled.fromPickup) < 50, `from pickup the window's p99 would be ${p99(stalled.fromPickup)} ms`);
  assert.ok(p99(stalled.all) > p99(calm.all), 'the whole run\'s p99 rises too');
});
