import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from '../../src/cli/args.js';
import { scenarioCommand } from '../../src/cli/command-specs.js';
import { scenarioFlags } from '../../src/cli/scenario-cli.js';
import { UserError } from '../../src/core/errors.js';
import { registeredScenarios, scenarioByCommand } from '../../src/scenarios/scenario-registry.js';
import '../../src/scenarios/builtin-scenarios.js';
import { defaultRegistry } from '../../engines/registry.js';

/**
 * Every built-in scenario's command line lives in its own folder, declared
 * on its registration (`cli`), and the CLI keeps no module of its own for
 * any scenario: one generic path (src/cli/scenario-cli.ts) runs them all.
 */
test('each built-in scenario declares its command line, and src/cli has no module named for a scenario', async () => {
  const builtins = registeredScenarios();
  assert.deepEqual(builtins.map((s) => s.command).sort(), ['generate', 'load', 'run', 'train']);
  for (const scenario of builtins) {
    assert.ok(scenario.cli, `${scenario.command} declares no cli`);
    const { commandLine } = await scenario.cli();
    assert.equal(typeof commandLine.fromFlags, 'function', `${scenario.command}'s command line reads no flags`);
    assert.equal(typeof commandLine.fromStored, 'function');
    assert.equal(typeof commandLine.printer, 'function');
    assert.ok(commandLine.unit.length > 0);
  }
  const cliFiles = readdirSync(join(import.meta.dirname, '..', '..', '..', 'src', 'cli'));
  const named = cliFiles.filter((f) => builtins.some((s) => [s.command, s.recordKind ?? 'classify'].some((word) => f === `${word}-command.ts` || f === `${word}-cli.ts`)));
  assert.deepEqual(named, [], 'a scenario\'s command line belongs in src/scenarios/<name>/<name>-cli.ts');
});

/** The flag readers a scenario is given check each number against its options table's range, and name the flag. */
test('the flag readers check the range the options table names', () => {
  const run = scenarioByCommand('run');
  const read = (argv: string[]) => scenarioFlags(run, parseArgs(argv, scenarioCommand(run).flags, 'run'), 'out', defaultRegistry);
  assert.equal(read(['--rounds', '5']).positiveInt('rounds'), 5);
  assert.throws(() => read(['--rounds', '101']).positiveInt('rounds'), (e: unknown) => e instanceof UserError && /--rounds/.test(e.message));
  assert.deepEqual(read(['--batch-sizes', '1,8']).positiveIntList('batch-sizes'), [1, 8]);
  assert.throws(() => read(['--warmup', '-1']).count('warmup'), UserError);
  assert.equal(read(['--worker-timeout', '2']).number('worker-timeout'), 2);
  assert.throws(() => read(['--worker-timeout', '0.5']).number('worker-timeout'), (e: unknown) => e instanceof UserError && /--worker-timeout/.test(e.message));
  assert.throws(() => read(['--engine-options', 'onnx-cpu:x=1']).engines(), (e: unknown) => e instanceof UserError && /--engine-options needs --engines/.test(e.message));
  assert.equal(read([]).engines(), null);
});
