import { test } from 'node:test';
import assert from 'node:assert/strict';
import { isCleanUserError, runCli } from '../../helpers/cli.js';
import { testOutputDir } from '../../helpers/test-cache.js';

test('an unreachable Redis is a clear error naming the URL with the password masked, fast, for run and worker alike', async () => {
  // Port 1 (tcpmux): nothing listens there, and no other test's listen(0) can be handed it, as a port found free could be.
  const port = 1;
  const url = `redis://bench:hunter2-not-shown@127.0.0.1:${port}`;
  for (const args of [['run', '--queue', url, '--out', testOutputDir('queue-unreachable')], ['worker', '--queue', url, '--name', 'w']]) {
    // An endless retry never ends on its own: runCli rejects ("timed out") past this bound, which only ends the test.
    // The CLI must give up by itself, naming the refusal; how soon depends on the machine's load, so no wall time is asserted.
    const r = await runCli(args, { timeoutMs: 180_000 });
    assert.ok(isCleanUserError(r), r.stderr);
    assert.match(r.stderr, new RegExp(`cannot reach Redis at redis://bench:\\*\\*\\*@127\\.0\\.0\\.1:${port}`));
    assert.match(r.stderr, /ECONNREFUSED/);
    assert.doesNotMatch(r.stderr + r.stdout, /hunter2/);
  }
  const wrong = await runCli(['run', '--queue', 'http://127.0.0.1:6379', '--out', testOutputDir('queue-bad-scheme')]);
  assert.ok(isCleanUserError(wrong), wrong.stderr);
  assert.match(wrong.stderr, /--queue must start with redis:\/\/ or rediss:\/\//);
  const orphan = await runCli(['run', '--on-each-worker', '--out', testOutputDir('queue-orphan-flag')]);
  assert.ok(isCleanUserError(orphan), orphan.stderr);
  assert.match(orphan.stderr, /need --queue/);
});
