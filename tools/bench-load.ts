/**
 * `npm run bench:load`: what the load generator itself can do, on the real
 * clock. The server scenario's serve loop (the same code `inferbench load`
 * runs) drives an idle mock engine (prepare, run and post-process return
 * at once), so whatever lateness shows is the generator's own: how late
 * each request was taken in against its scheduled arrival (timer
 * granularity, event-loop turns, the OS scheduling the process). Poisson
 * arrivals at rising rates, each for BENCH_LOAD_SECONDS (default 5) after
 * half a second of warm-up; prints lateness p50/p99/p99.9/max, offered and
 * achieved rate, and the highest rate it drives with p99 lateness under
 * 1 ms and the achieved rate within 2% of the offered one.
 * Target: p99 lateness under 1 ms at 2,000 requests/s.
 */
import { cpus, loadavg } from 'node:os';
import { summarizeRequests } from '../src/scenarios/load/load-summary.js';
import { percentileOfSorted } from '../src/core/statistics.js';
import { drawSchedule } from '../src/scenarios/load/arrival-schedule.js';
import { RealClock } from '../src/scenarios/load/clock.js';
import { serveSchedule, type BatchHandler } from '../src/scenarios/load/serve-loop.js';

const SECONDS = Number(process.env['BENCH_LOAD_SECONDS'] ?? 5);
const RATES = (process.env['BENCH_LOAD_RATES'] ?? '500,1000,2000,5000,10000,20000').split(',').map(Number);
const TARGET_RATE = 2000;
const TARGET_P99_MS = 1;

/** An engine with nothing to do: every part returns at once. */
const idle: BatchHandler<null, null> = {
  prepare: () => null,
  run: async () => null,
  post: () => undefined,
};

interface Row {
  readonly rate: number;
  readonly offered: number;
  readonly achieved: number;
  readonly late: { readonly p50: number; readonly p99: number; readonly p999: number; readonly max: number };
  readonly cpuShare: number;
}

async function measure(rate: number): Promise<Row> {
  const schedule = drawSchedule({ arrival: 'poisson', burstiness: 1, seed: 1, round: 0, rateRps: rate, warmupMs: 500, durationMs: SECONDS * 1000, minQueries: 1 });
  const cpu = process.cpuUsage();
  const started = performance.now();
  const served = await serveSchedule({ clock: new RealClock(), schedule, batcher: { maxBatch: 1, maxWaitMs: 0 }, handler: idle, drainMs: 1000, leadMs: 5 });
  const wall = performance.now() - started;
  const used = process.cpuUsage(cpu);
  const late = served.samples.enqueueLateMs.filter((v): v is number => v !== null).sort((a, b) => a - b);
  const summary = summarizeRequests(served.samples, { durationMs: SECONDS * 1000, minQueries: 1, maxBatch: 1, slo: null, endedEarly: served.endedEarly, scheduleComplete: served.scheduleComplete });
  return {
    rate,
    offered: summary.offeredRps,
    achieved: summary.achievedRps,
    late: { p50: percentileOfSorted(late, 50), p99: percentileOfSorted(late, 99), p999: percentileOfSorted(late, 99.9), max: late[late.length - 1] as number },
    cpuShare: (used.user + used.system) / 1000 / wall,
  };
}

const fmt = (ms: number) => `${(ms * 1000).toFixed(0).padStart(7)} µs`;

async function main(): Promise<void> {
  const [load1] = loadavg();
  process.stdout.write(
    `bench:load — the serve loop of inferbench load on the real clock, idle mock engine, Poisson arrivals, ${SECONDS} s per rate\n` +
      `${cpus()[0]?.model ?? 'cpu'}, ${cpus().length} cores, load average ${(load1 ?? 0).toFixed(2)}; node ${process.version}\n\n` +
      `    rate   offered  achieved   lateness p50       p99     p99.9       max   CPU of one core\n`,
  );
  const rows: Row[] = [];
  for (const rate of RATES) {
    const row = await measure(rate);
    rows.push(row);
    process.stdout.write(
      `${String(rate).padStart(8)}  ${row.offered.toFixed(0).padStart(8)}  ${row.achieved.toFixed(0).padStart(8)}  ${fmt(row.late.p50)}${fmt(row.late.p99)}${fmt(row.late.p999)}${fmt(row.late.max)}   ${(row.cpuShare * 100).toFixed(0).padStart(5)}%\n`,
    );
  }
  const drivable = rows.filter((r) => r.late.p99 < TARGET_P99_MS && r.achieved >= 0.98 * r.offered);
  const best = drivable.length > 0 ? Math.max(...drivable.map((r) => r.rate)) : null;
  const target = rows.find((r) => r.rate === TARGET_RATE);
  process.stdout.write(
    `\nhighest rate driven with p99 lateness under ${TARGET_P99_MS} ms and achieved within 2% of offered: ${best === null ? 'none' : `${best} req/s`}\n` +
      (target
        ? `target: p99 lateness under ${TARGET_P99_MS} ms at ${TARGET_RATE} req/s: ${target.late.p99 < TARGET_P99_MS ? 'MET' : 'NOT MET'} (${(target.late.p99 * 1000).toFixed(0)} µs)\n`
        : ''),
  );
}

await main();
