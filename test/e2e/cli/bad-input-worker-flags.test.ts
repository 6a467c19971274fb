import { test } from 'node:test';
import assert from 'node:assert/strict';
import { isCleanUserError, runCli } from '../../helpers/cli.js';

test('inferbench worker: a missing --queue, a bad --name, --stall-timeout or --engines is a user error with the fix, before connecting', async () => {
  const cases: [string[], RegExp][] = [
    [['worker'], /inferbench worker needs --queue[\s\S]*fix: pass --queue redis:\/\/HOST:PORT/],
    [['worker', '--queue', 'redis://127.0.0.1:1', '--name', 'has space'], /--name must be letters, digits/],
    [['worker', '--queue', 'redis://127.0.0.1:1', '--stall-timeout', '0'], /--stall-timeout must be between 1 and 3600 seconds, got 0/],
    [['worker', '--queue', 'redis://127.0.0.1:1', '--engines', 'onnx-cpu,no-such-engine'], /no-such-engine/],
  ];
  for (const [args, message] of cases) {
    const r = await runCli(args);
    assert.ok(isCleanUserError(r), `${args.join(' ')}: ${r.stderr}`);
    assert.match(r.stderr, message);
  }
});
