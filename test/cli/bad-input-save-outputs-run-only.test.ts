import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseArgs } from '../../src/cli/args.js';
import { COMMANDS } from '../../src/cli/command-specs.js';
import { UserError } from '../../src/core/errors.js';

const flagsOf = (name: string) => COMMANDS.find((c) => c.name === name)?.flags ?? [];

test('--save-outputs is an option of run only: generate, train and load, which write no outputs.parquet, refuse it instead of ignoring it', () => {
  assert.equal(parseArgs(['--save-outputs'], flagsOf('run'), 'run').flags['save-outputs'], true);
  for (const command of ['generate', 'train', 'load']) {
    assert.ok(flagsOf(command).length > 0, `${command} has flags`);
    assert.throws(() => parseArgs(['--save-outputs'], flagsOf(command), command), (err: unknown) => {
      assert.ok(err instanceof UserError);
      assert.equal(err.message, `unknown option --save-outputs for \`inferbench ${command}\``);
      return true;
    });
  }
});
