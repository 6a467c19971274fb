import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseArgs } from '../../src/cli/args.js';
import { commands } from '../../src/cli/command-specs.js';
import { UserError } from '../../src/core/errors.js';

const flagsOf = (name: string) => commands().find((c) => c.name === name)?.flags ?? [];

test('a single-value flag given twice is an error naming both values (it kept the last silently); a repeatable one is not', () => {
  assert.throws(() => parseArgs(['--rates', '50', '--rates', '100'], flagsOf('load'), 'load'), (err: unknown) => {
    assert.ok(err instanceof UserError);
    assert.equal(err.message, '--rates was given twice ("50" and "100"), but it takes one value');
    assert.match(err.fix ?? '', /--rates 50,100/);
    return true;
  });
  assert.throws(() => parseArgs(['--out', 'a', '--out=b'], flagsOf('run'), 'run'), /--out was given twice \("a" and "b"\)/);
  assert.equal(parseArgs(['--out', 'a', '--out', 'a'], flagsOf('run'), 'run').flags['out'], 'a', 'the same value twice is no question');
  const models = parseArgs(['--model', 'a', '--model', 'b'], flagsOf('run'), 'run');
  assert.deepEqual(models.repeated?.['model'], ['a', 'b']);
});
