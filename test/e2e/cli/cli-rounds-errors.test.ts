import { test } from 'node:test';
import assert from 'node:assert/strict';
import { runCli, isCleanUserError } from '../../helpers/cli.js';

const cases: readonly { readonly args: readonly string[]; readonly message: RegExp; readonly fix: RegExp }[] = [
  { args: ['--rounds', '0'], message: /--rounds must be a whole number of at least 1, got 0/, fix: /fix: pass --rounds 3 \(the default\)/ },
  { args: ['--rounds', '1.5'], message: /--rounds must be a whole number of at least 1, got 1\.5/, fix: /fix: pass --rounds 3/ },
  { args: ['--rounds', 'three'], message: /--rounds must be a whole number, got "three"/, fix: /fix: pass --rounds 3/ },
  {
    args: ['--rounds', '50', '--max-time', '10'],
    message: /50 rounds leave 200 ms per round within the maximum time of 10 s/,
    fix: /fix: lower --rounds to at most 20, or raise --max-time to at least 25 \(seconds\)/,
  },
];

for (const c of cases) {
  test(`run ${c.args.join(' ')} fails before measuring, with the fix, exit code 2 and no stack`, async () => {
    const r = await runCli(['run', ...c.args, '--no-png']);
    assert.ok(isCleanUserError(r), r.stderr);
    assert.equal(r.code, 2);
    assert.match(r.stderr, c.message);
    assert.match(r.stderr, c.fix);
    assert.doesNotMatch(r.stderr, /\n\s+at /);
  });
}
