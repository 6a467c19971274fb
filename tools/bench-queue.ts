/**
 * `npm run bench:queue`: what the queue costs, on loopback.
 *
 * 1. Queue overhead per job: a no-op worker (bench-queue-noop-worker.ts:
 *    the real worker loop, a job runner that returns at once) and the real
 *    coordinator. N jobs are enqueued together and the time from the
 *    enqueue to the last result received, divided by N, is the overhead
 *    per job (the jobs' own time is ~0 here). Also the round trip of a
 *    one-job run, which adds the coordinator's per-run setup. Target: under
 *    20 ms per job.
 * 2. A cell run through a worker against the same cell run locally
 *    (`inferbench run` onnx-cpu, batch 8, 5 rounds each): their 95% CIs
 *    across round means must overlap.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { packageRoot } from '../src/core/package-info.js';
import type { RunRecord } from '../src/core/results.js';
import { QueueCoordinator } from '../src/launchers/queue/coordinator.js';
import { CLASSIFY_JOB_SCHEMA, type ClassifyQueueJob } from '../src/scenarios/classify/classify-queue-job.js';
import { parseRedisUrl } from '../src/launchers/queue/redis-url.js';

const ROOT = packageRoot();
const CLI = join(ROOT, 'dist', 'src', 'cli', 'main.js');
const JOBS = Number(process.env['BENCH_QUEUE_JOBS'] ?? 200);
const TARGET_MS = 20;

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const a = s.address();
      s.close(() => resolve(typeof a === 'object' && a ? a.port : 0));
    });
  });
}

/** Starts a process and resolves once its output shows `ready`. */
function startUntil(args: readonly string[], ready: RegExp, command = process.execPath): Promise<ChildProcess> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let text = '';
    const on = (d: Buffer) => {
      text += d.toString();
      if (ready.test(text)) resolve(child);
    };
    child.stdout?.on('data', on);
    child.stderr?.on('data', on);
    child.once('exit', (code) => reject(new Error(`${args.join(' ')} exited ${code}:\n${text}`)));
  });
}

function stop(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null) return resolve();
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
}

function noopJob(runId: string): ClassifyQueueJob {
  const hash = '0'.repeat(64);
  return {
    schema: CLASSIFY_JOB_SCHEMA, runId, row: 'noop', model: { kind: 'default' }, dtype: null, modelHash: hash, dataset: { kind: 'embedded' },
    datasetConfig: null, split: null, rowsHash: hash, textColumn: null, labelColumn: null, limit: 1, sequenceLength: null, engine: 'noop',
    threads: null, batchSizes: [1], rounds: 1, warmupBatches: 0, stop: { minTimeMs: 0, minBatches: 1, maxTimeMs: 1000 }, maxCv: 1,
    parity: { reference: null, tolerance: 1e-4 }, workers: null, refused: {},
  };
}

const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};

async function queueOverhead(url: string): Promise<void> {
  const worker = await startUntil([join(ROOT, 'dist', 'tools', 'bench-queue-noop-worker.js'), url, 'noop-worker'], /ready/);
  const coordinator = await QueueCoordinator.connect(parseRedisUrl(url));
  try {
    await coordinator.waitForWorkers(['noop-worker'], 10_000);
    // Warm up connections and the worker's loop.
    await coordinator.runJobs([noopJob('warm')], { onOutcome: async () => undefined, drainTimeoutMs: 1000, workerTimeoutMs: 60_000 });
    const started = performance.now();
    let arrived = 0;
    await coordinator.runJobs(
      Array.from({ length: JOBS }, () => noopJob('batch')),
      { onOutcome: async () => void arrived++, drainTimeoutMs: 1000, workerTimeoutMs: 60_000 },
    );
    const perJob = (performance.now() - started) / JOBS;
    const trips: number[] = [];
    for (let i = 0; i < 30; i++) {
      const t = performance.now();
      await coordinator.runJobs([noopJob(`single-${i}`)], { onOutcome: async () => undefined, drainTimeoutMs: 1000, workerTimeoutMs: 60_000 });
      trips.push(performance.now() - t);
    }
    const mean = trips.reduce((a, b) => a + b, 0) / trips.length;
    console.log(`queue overhead per job (${arrived} no-op jobs enqueued together, one worker, concurrency 1): ${perJob.toFixed(2)} ms  (target < ${TARGET_MS} ms: ${perJob < TARGET_MS ? 'met' : 'NOT met'})`);
    console.log(`one-job run round trip (enqueue to result, with the coordinator's per-run event reader): mean ${mean.toFixed(2)} ms, median ${median(trips).toFixed(2)} ms over ${trips.length}`);
  } finally {
    await coordinator.close();
    await stop(worker);
  }
}

function cliRun(args: readonly string[], out: string): Promise<RunRecord> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, 'run', ...args, '--out', out], { stdio: ['ignore', 'ignore', 'inherit'] });
    child.once('exit', (code) => {
      if (code !== 0) return reject(new Error(`inferbench run ${args.join(' ')} exited ${code}`));
      const id = readdirSync(out).find((f) => !f.startsWith('history'))!;
      resolve(JSON.parse(readFileSync(join(out, id, 'results.json'), 'utf8')) as RunRecord);
    });
  });
}

async function localVersusWorker(url: string, dir: string): Promise<void> {
  const worker = await startUntil([CLI, 'worker', '--queue', url, '--name', 'bench-worker', '--engines', 'onnx-cpu'], /ready on/);
  try {
    const args = ['--engines', 'onnx-cpu', '--batch-sizes', '8', '--rounds', '5', '--no-png'];
    const local = await cliRun(args, join(dir, 'local'));
    const queued = await cliRun([...args, '--queue', url], join(dir, 'queue'));
    const interval = (run: RunRecord) => {
      const cell = run.cells[0];
      if (cell?.state !== 'completed' || !cell.betweenRounds?.ci95) throw new Error(`no interval: ${JSON.stringify(cell).slice(0, 200)}`);
      return cell.betweenRounds;
    };
    const a = interval(local);
    const b = interval(queued);
    const overlap = a.ci95!.low <= b.ci95!.high && b.ci95!.low <= a.ci95!.high;
    const show = (name: string, r: typeof a) => `${name}: mean ${r.mean.toFixed(3)} ms per batch, 95% CI ${r.ci95!.low.toFixed(3)}–${r.ci95!.high.toFixed(3)} (${r.rounds} rounds)`;
    console.log('onnx-cpu, default model, batch 8:');
    console.log(`  ${show('local      ', a)}`);
    console.log(`  ${show('via worker ', b)}`);
    console.log(`  intervals overlap: ${overlap ? 'yes' : 'NO'}`);
  } finally {
    await stop(worker);
  }
}

const port = await freePort();
const redis = await startUntil(['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], /Ready to accept connections/, 'redis-server');
const dir = mkdtempSync(join(tmpdir(), 'bench-queue-'));
try {
  const url = `redis://127.0.0.1:${port}`;
  console.log(`bench:queue on loopback (redis-server ${port}), load average ${loadavg()[0]?.toFixed(2)} on this machine`);
  await queueOverhead(url);
  await localVersusWorker(url, dir);
} finally {
  await stop(redis);
  rmSync(dir, { recursive: true, force: true });
}
