import { test } from 'node:test';
import assert from 'node:assert/strict';
import { isCleanUserError, runCli } from '../../helpers/cli.js';
import { REDIS_SKIP, startRedis } from '../../helpers/redis-server.js';

test('a --queue database the server does not have (/99) is named by worker and run, which exit instead of working on database 0', { skip: REDIS_SKIP }, async () => {
  const redis = await startRedis();
  try {
    const url = `${redis.url}/99`;
    for (const command of [['worker', '--queue', url, '--name', 'w'], ['run', '--queue', url, '--no-png']]) {
      const r = await runCli(command, { timeoutMs: 60_000 });
      assert.ok(isCleanUserError(r), `${command[0]}: ${r.stderr}`);
      assert.match(r.stderr, new RegExp(`--queue names database 99, but the Redis server at redis://127\\.0\\.0\\.1:${redis.port}/99 has databases 0 to 15`), command[0]);
      assert.doesNotMatch(r.stderr, /ready on|no worker is registered/, command[0]);
    }
  } finally {
    await redis.stop();
  }
});
