import { test } from 'node:test';
import assert from 'node:assert/strict';
import { commands } from '../../src/cli/command-specs.js';
import { parseArgs } from '../../src/cli/args.js';
import { UserError } from '../../src/core/errors.js';

/**
 * A flag a command accepts but never reads is a silent no-op: the user asks
 * for outputs.parquet and gets nothing, with no word. `--save-outputs`
 * writes the reference engine's and the failed-parity cells' outputs, which
 * only `run` has; generate, train and load must refuse it as unknown.
 */
test('--save-outputs is a flag of run only; generate, train and load refuse it as unknown', () => {
  const withIt = commands().filter((c) => c.flags.some((f) => f.name === 'save-outputs')).map((c) => c.name);
  assert.deepEqual(withIt, ['run']);
  for (const name of ['generate', 'train', 'load']) {
    const spec = commands().find((c) => c.name === name);
    assert.ok(spec, name);
    assert.throws(() => parseArgs(['--save-outputs'], spec.flags, name), (e: unknown) => e instanceof UserError && /unknown option --save-outputs/.test(e.message));
  }
});
