import { test } from 'node:test';
import assert from 'node:assert/strict';
import { runCli } from '../../helpers/cli.js';
import { testOutputDir } from '../../helpers/test-cache.js';
import { tfjsNodeSkip } from '../../helpers/tfjs-node.js';

const ARGS = ['run', '--engines', 'tfjs-node', '--batch-sizes', '1', '--limit', '4', '--rounds', '1', '--min-time', '0', '--reference', 'none', '--no-png'];
const LIBRARY_LINE = /absl::InitializeLog|oneDNN custom operations|^[IW]\d{4} \d\d:\d\d:\d+\./m;

test("libtensorflow's own start-up lines stay out of a tfjs-node run's output, and --verbose shows them", { skip: await tfjsNodeSkip() }, async () => {
  // The child that loads the library must not inherit a level from the test's own environment.
  const env = { TF_CPP_MIN_LOG_LEVEL: '', INFERBENCH_VERBOSE: '' };
  const quiet = await runCli([...ARGS, '--out', testOutputDir('tfjs-node-logs-quiet')], { env });
  assert.equal(quiet.code, 0, quiet.stderr);
  assert.match(quiet.stderr, /\[1\/1\] tfjs-node, batch 1/, 'the progress lines are still there');
  assert.doesNotMatch(`${quiet.stdout}\n${quiet.stderr}`, LIBRARY_LINE);

  const verbose = await runCli([...ARGS, '--verbose', '--out', testOutputDir('tfjs-node-logs-verbose')], { env });
  assert.equal(verbose.code, 0, verbose.stderr);
  assert.match(verbose.stderr, LIBRARY_LINE, 'asked for, the library speaks');
});
