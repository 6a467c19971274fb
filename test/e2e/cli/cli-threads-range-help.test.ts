import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { packageRoot } from '../../../src/core/package-info.js';
import { isCleanUserError, runCli } from '../../helpers/cli.js';

test('--threads has one range, 1 to 4 × the cores, in the help of run, generate and train, in docs/cli.md and in what each refuses', async () => {
  const cores = availableParallelism();
  const range = `range 1–${4 * cores} threads (4 × the ${cores} cores of this machine)`;
  for (const command of ['run', 'generate', 'train']) {
    const help = await runCli([command, '--help']);
    assert.equal(help.code, 0, help.stderr);
    const line = help.stdout.split('\n').find((l) => l.trimStart().startsWith('--threads')) ?? '';
    assert.ok(line.includes(range), `${command} --help: ${line}`);
  }
  const cliDoc = readFileSync(join(packageRoot(), 'docs', 'cli.md'), 'utf8');
  // Each command's flag table (tools/cli-doc.ts) names the bound, not this machine's count.
  for (const command of ['run', 'generate', 'train']) {
    const table = cliDoc.slice(cliDoc.indexOf(`### \`inferbench ${command}\``));
    assert.match(table.slice(0, table.indexOf('\n### ', 1)), /\| `--threads [^`]*` \| engine default \| 1 to 4 × the cores of the machine \|/, command);
  }

  const tooMany = String(4 * cores + 1);
  for (const args of [['generate', '--threads', tooMany], ['train', '--threads', tooMany]]) {
    const r = await runCli(args, { timeoutMs: 60_000 });
    assert.ok(isCleanUserError(r), `${args.join(' ')}: ${r.stderr}`);
    assert.match(r.stderr, new RegExp(`--threads must be a whole number from 1 to ${4 * cores} threads \\(4 × the ${cores} cores of this machine\\), got ${tooMany}`));
  }
});
