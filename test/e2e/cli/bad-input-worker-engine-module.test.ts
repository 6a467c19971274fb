import { test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { isCleanUserError, runCli } from '../../helpers/cli.js';
import { testOutputDir } from '../../helpers/test-cache.js';

test('worker, run and inspect --engine-module naming a missing or broken module is a user error naming the path and the cause, with no stack trace', async () => {
  const dir = testOutputDir('bad-input-engine-module');
  const broken = join(dir, 'broken.js');
  writeFileSync(broken, 'import "./not-there.js";\n');
  const cases: [string, RegExp][] = [
    ['/nonexistent/engines.js', /engine module \/nonexistent\/engines\.js does not exist/],
    [broken, /engine module .*broken\.js could not be loaded: .*not-there\.js/],
  ];
  // Every command that takes the flag registers the module before anything else runs (src/cli/dispatch.ts).
  const commands = [['worker', '--queue', 'redis://127.0.0.1:1'], ['run', '--out', dir], ['inspect']];
  for (const [path, message] of cases) {
    for (const command of commands) {
      const r = await runCli([...command, '--engine-module', path], { timeoutMs: 60_000 });
      assert.ok(isCleanUserError(r), `${command[0]} ${path}: ${r.stderr}`);
      assert.match(r.stderr, message);
      assert.match(r.stderr, /fix: pass --engine-module the path of a JavaScript module that exports `engines`/);
    }
  }
});
