/**
 * Issue 31: the queue names no scenario. A queue job kind defined only in
 * this test is accepted by the worker's schema check, which checks the
 * envelope itself and every payload field with the kind's own checks, and
 * refuses the fields of another kind.
 */
import test from 'node:test';
import assert from 'node:assert/strict';
import { list, text } from '../../src/core/job-checks.js';
import { parseQueueJob } from '../../src/launchers/queue/job-schema.js';
import { loadQueueJobs } from '../../src/scenarios/scenario-jobs.js';
import { kindOfJob, registerQueueJob, type QueueJob } from '../../src/core/queue-jobs.js';

// The built-in kinds, as `inferbench worker` registers them.
await loadQueueJobs();

const ECHO_SCHEMA = 'inferbench.echo-test/1';

interface EchoQueueJob extends QueueJob {
  readonly engine: string;
  readonly words: readonly string[];
}

registerQueueJob<EchoQueueJob>({
  schema: ECHO_SCHEMA,
  name: 'echo-group',
  fields: { engine: text(64), words: list(text(32), 8) },
  engine: (job) => job.engine,
  summary: (job) => `echo ${job.words.join(' ')} on ${job.engine}`,
});

const echo = { schema: ECHO_SCHEMA, runId: 'r1', engine: 'echo-engine', words: ['alpha', 'beta'], workers: null, refused: {} };

test('a job of a kind registered by a test passes the schema, and its kind says its engine and log line', () => {
  const parsed = parseQueueJob(echo);
  assert.deepEqual(parsed, { ok: true, job: echo });
  assert.ok(parsed.ok);
  const kind = kindOfJob(parsed.job);
  assert.equal(kind.name, 'echo-group');
  assert.equal(kind.engine(parsed.job), 'echo-engine');
  assert.equal(kind.summary(parsed.job), 'echo alpha beta on echo-engine');
});

test("the kind's own checks validate every payload field; the envelope is checked by the queue, whatever the kind", () => {
  assert.deepEqual(parseQueueJob({ ...echo, words: ['alpha', 'x'.repeat(33)] }), { ok: false, reason: 'field "words[1]" must be 1 to 32 characters long' });
  assert.deepEqual(parseQueueJob({ ...echo, words: [] }), { ok: false, reason: 'field "words" must hold 1 to 8 items' });
  assert.deepEqual(parseQueueJob({ ...echo, row: 'a classify field' }), { ok: false, reason: 'field "row" is not a field of the schema' });
  const { runId: _runId, ...noRun } = echo;
  assert.deepEqual(parseQueueJob(noRun), { ok: false, reason: 'field "runId" is missing' });
  assert.deepEqual(parseQueueJob({ ...echo, workers: ['a b'] }), { ok: false, reason: 'field "workers[0]" must be letters, digits, ".", "_" or "-"' });
  assert.deepEqual(parseQueueJob({ ...echo, schema: 'inferbench.echo-test/2' }), { ok: false, reason: `job schema is not inferbench.open-group/2 or ${ECHO_SCHEMA}` });
});

test("a job of the classify kind's former schema (an older inferbench's coordinator) is refused saying the versions differ", () => {
  assert.deepEqual(parseQueueJob({ ...echo, schema: 'inferbench.load-group/1' }), {
    ok: false,
    reason: 'job schema inferbench.load-group/1 is an older inferbench\'s (this worker runs inferbench.open-group/2): run the same inferbench version on the coordinator and every worker',
  });
});

test('a kind may not list an envelope field (it would loosen what the queue checks), nor take a schema twice', () => {
  const kind = { schema: 'inferbench.loose/1', name: 'loose', fields: { refused: text(10) }, engine: () => 'x', summary: () => 'x' };
  assert.throws(() => registerQueueJob(kind), /queue job kind 'inferbench.loose\/1' lists envelope field refused, which the queue checks itself/);
  assert.throws(() => registerQueueJob({ ...kind, schema: ECHO_SCHEMA, fields: {} }), /already registered/);
});
