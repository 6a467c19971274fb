/**
 * Issue 31: one job protocol serves every scenario on the queue. A queue job
 * kind and its runner defined only in this test run on a worker through
 * the job handler `inferbench worker` uses (the worker loop handing each
 * accepted job to runQueueJob, src/cli/worker-command.ts), with no edit to
 * worker code: the runner is looked up by the job's schema. The worker
 * still trusts nothing it is sent: a payload the kind refuses never reaches
 * the runner, and a kind with no runner here is refused with its schema named.
 */
import test from 'node:test';
import assert from 'node:assert/strict';
import { defaultRegistry } from '../../../engines/registry.js';
import { collectEnvironment } from '../../../src/core/environment.js';
import { list, text } from '../../../src/core/job-checks.js';
import { parseRedisUrl } from '../../../src/launchers/queue/redis-url.js';
import { startWorkerLoop } from '../../../src/launchers/queue/worker-loop.js';
import { registerQueueJobRunner, runQueueJob, type JobRunnerContext } from '../../../src/core/queue-runners.js';
import { BUILTIN_LAUNCHERS } from '../../../src/runs/builtin-launchers.js';
import { registerQueueJob, type QueueJob } from '../../../src/core/queue-jobs.js';
import { QueueWatch } from '../../helpers/queue-inject.js';
import { REDIS_SKIP, startRedis } from '../../helpers/redis-server.js';

const ECHO_SCHEMA = 'inferbench.echo-run/1';
const NO_RUNNER_SCHEMA = 'inferbench.echo-no-runner/1';

interface EchoRunJob extends QueueJob {
  readonly engine: string;
  readonly words: readonly string[];
}

const echoKind = { name: 'echo-run', fields: { engine: text(64), words: list(text(32), 8) }, engine: (job: EchoRunJob) => job.engine, summary: (job: EchoRunJob) => `echo ${job.words.join(' ')}` };
registerQueueJob<EchoRunJob>({ schema: ECHO_SCHEMA, ...echoKind });
registerQueueJob<EchoRunJob>({ schema: NO_RUNNER_SCHEMA, ...echoKind });

/** The jobs the test runner was handed: a refused payload must never be among them. */
const ran: EchoRunJob[] = [];
registerQueueJobRunner<EchoRunJob>(ECHO_SCHEMA, async (job, retries, ctx) => {
  ran.push(job);
  return job.words.map((word) => ({ word: word.toUpperCase(), host: ctx.host.name, retries }));
});

const job = (schema: string, words: readonly string[]) => ({ schema, runId: 'r1', engine: 'echo-engine', words, workers: null, refused: {} });

test("a test-defined kind's jobs run on a worker through its registered runner; payloads are checked by the kind first", { skip: REDIS_SKIP }, async () => {
  const redis = await startRedis();
  const ctx: JobRunnerContext = { registry: defaultRegistry, engineModules: [], host: { name: 'echo-worker', id: 'test' }, launchers: BUILTIN_LAUNCHERS, fetchFiles: () => Promise.reject(new Error('echo jobs name no files')) };
  const worker = await startWorkerLoop({
    address: parseRedisUrl(redis.url),
    info: { name: 'echo-worker', id: 'test', environment: collectEnvironment(), engines: [{ id: 'echo-engine', available: true }], concurrency: 1 },
    concurrency: 1,
    stallMs: 30_000,
    // What `inferbench worker` hands the loop, word for word.
    run: (accepted, retries) => runQueueJob(accepted, retries, ctx),
    log: () => undefined,
  });
  const watch = await QueueWatch.open(redis.url);
  try {
    const done = await watch.add('echo-ok', job(ECHO_SCHEMA, ['alpha', 'beta']));
    assert.deepEqual(done, { kind: 'completed', value: { kind: 'cells', worker: 'echo-worker', cells: [{ word: 'ALPHA', host: 'echo-worker', retries: 0 }, { word: 'BETA', host: 'echo-worker', retries: 0 }] } });

    const bad = await watch.add('echo-bad', job(ECHO_SCHEMA, ['x'.repeat(33)]));
    assert.deepEqual(bad, { kind: 'failed', reason: 'refused by worker echo-worker: not an inferbench job (field "words[0]" must be 1 to 32 characters long)' });

    const orphan = await watch.add('echo-orphan', job(NO_RUNNER_SCHEMA, ['alpha']));
    assert.deepEqual(orphan, { kind: 'completed', value: { kind: 'refused', refused: { 'echo-worker': `worker echo-worker: this worker runs no job of schema ${NO_RUNNER_SCHEMA}` }, skip: false } });

    assert.deepEqual(ran.map((j) => j.words), [['alpha', 'beta']], 'only the valid job of a kind with a runner was run');
  } finally {
    await watch.close();
    await worker.close();
    await redis.stop();
  }
});

test('a runner for a schema no kind registered (whose fields nobody checks), or a second runner for one, is refused at registration', () => {
  assert.throws(() => registerQueueJobRunner('inferbench.unchecked/1', async () => []), /no queue job kind is registered for schema 'inferbench\.unchecked\/1', so its jobs' fields would go unchecked/);
  assert.throws(() => registerQueueJobRunner(ECHO_SCHEMA, async () => []), /a queue job runner for schema 'inferbench\.echo-run\/1' is already registered/);
});
