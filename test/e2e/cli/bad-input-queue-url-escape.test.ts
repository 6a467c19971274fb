import { test } from 'node:test';
import assert from 'node:assert/strict';
import { isCleanUserError, runCli } from '../../helpers/cli.js';

test('a --queue address with a malformed %-escape in its user or password is a user error naming which, on worker and run, with no stack trace', async () => {
  const cases: [string, RegExp][] = [
    ['redis://de%ZZfault:pw@127.0.0.1:1', /--queue's user name holds a "%" that is not followed by two hex digits/],
    ['redis://default:pw%G1secret@127.0.0.1:1', /--queue's password holds a "%" that is not followed by two hex digits/],
  ];
  for (const [url, message] of cases) {
    for (const command of [['worker', '--queue', url, '--name', 'w'], ['run', '--queue', url, '--no-png']]) {
      const r = await runCli(command, { timeoutMs: 60_000 });
      assert.ok(isCleanUserError(r), `${command.join(' ')}: ${r.stderr}`);
      assert.match(r.stderr, message, command.join(' '));
      assert.match(r.stderr, /fix: write a literal "%" as %25/);
      assert.ok(!r.stderr.includes('secret'), 'the password is not echoed');
    }
  }
});
