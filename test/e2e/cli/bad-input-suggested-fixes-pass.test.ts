import { test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { UserError } from '../../../src/core/errors.js';
import { checkRange } from '../../../src/core/option-ranges.js';
import { checkContext } from '../../../src/models/greedy-loop.js';
import { isCleanUserError, runCli } from '../../helpers/cli.js';
import { testOutputDir } from '../../helpers/test-cache.js';

/** The fix of the UserError `fn` throws, or null when it passes. */
function fixOf(fn: () => void): string | null {
  try {
    fn();
    return null;
  } catch (err) {
    assert.ok(err instanceof UserError, String(err));
    return err.fix ?? '';
  }
}

test('a fix that suggests a value suggests one that passes the same check: prompt lengths and new tokens against the context, calibration rows against the dataset', async () => {
  for (const context of [2, 16, 1024]) {
    for (const prompt of [1, context - 1, context, context + 1, 2 * context, 2000]) {
      for (const newTokens of [1, 4, 32, context - 1, context, context + 5]) {
        if (prompt < 1 || newTokens < 1) continue;
        const fix = fixOf(() => checkContext(prompt, newTokens, context));
        if (fix === null) continue;
        const where = `prompt ${prompt}, new ${newTokens}, context ${context}: ${fix}`;
        let suggested = 0;
        for (const m of fix.matchAll(/prompts of at most (\d+) tokens with (\d+) new tokens/g)) {
          suggested++;
          assert.equal(fixOf(() => checkContext(Number(m[1]), Number(m[2]), context)), null, where);
          checkRange('promptLengths', Number(m[1]));
        }
        for (const m of fix.matchAll(/at most (\d+) new tokens from (\d+)-token prompts/g)) {
          suggested++;
          assert.equal(fixOf(() => checkContext(Number(m[2]), Number(m[1]), context)), null, where);
          checkRange('newTokens', Number(m[1]));
        }
        assert.ok(suggested > 0 || !/\d+ tokens/.test(fix), `a number the test cannot check: ${where}`);
      }
    }
  }
  // The case the probe found: 2000-token prompts on the default decoder (context 1024) were told "at most 1023", refused again.
  const cli = await runCli(['generate', '--prompt-lengths', '2000', '--engines', 'onnx-cpu', '--no-png', '--out', testOutputDir('suggested-fixes')]);
  assert.ok(isCleanUserError(cli), cli.stderr);
  assert.match(cli.stderr, /fix: use prompts of at most 992 tokens with 32 new tokens/);

  const dir = testOutputDir('suggested-fixes-calibration');
  const one = join(dir, 'one.jsonl');
  writeFileSync(one, '{"text": "a fine film", "label": 1}\n');
  const r = await runCli(['run', '--dtype', 'q8-static', '--calibration-rows', '1', '--dataset', one, '--engines', 'onnx-cpu', '--no-png', '--out', join(dir, 'out')]);
  assert.ok(isCleanUserError(r), r.stderr);
  assert.doesNotMatch(r.stderr, /lower --calibration-rows \(calibrationRows\) to 1\b/, 'suggested the value it refused');
  assert.match(r.stderr, /fix: use a dataset with at least 2 rows/);
});
