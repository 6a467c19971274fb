import { test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { UserError } from '../../../src/core/errors.js';
import { checkTextColumn, textOf } from '../../../datasets/columns.js';
import { isCleanUserError, runCli } from '../../helpers/cli.js';
import { TINY_RUN_ARGS } from '../../helpers/dashboard.js';
import { testOutputDir } from '../../helpers/test-cache.js';

async function* rowsOf(values: readonly unknown[]): AsyncIterable<Record<string, unknown>> {
  for (const value of values) yield { text: value, label: 0 };
}

test('a text column holding numbers, nulls or objects is refused, naming the column and what it holds', async () => {
  const cases: [unknown[], RegExp][] = [
    [['fine', 1, 'x'], /column "text" holds integers \(row 2: 1\), not text/],
    [['fine', 'also fine', null], /column "text" holds nulls \(row 3: null\)/],
    [[{ nested: 'object' }], /column "text" holds objects \(row 1: \{"nested":"object"\}\)/],
    [[2.5], /column "text" holds numbers/],
    [[['a', 'b']], /column "text" holds lists/],
  ];
  for (const [values, message] of cases) {
    await assert.rejects(checkTextColumn(rowsOf(values), 'text'), (err: unknown) => err instanceof UserError && message.test(err.message) && /--text-column/.test(err.fix ?? ''), String(values));
  }
  await checkTextColumn(rowsOf(['a', 'b', '']), 'text');
  assert.equal(textOf({ text: 'hello' }, 'text'), 'hello');
  assert.throws(() => textOf({ text: 1 }, 'text'), /holds integers/, 'rows are checked again as they are tokenized');

  const base = testOutputDir('bad-input-text-column');
  const jsonl = join(base, 'rows.jsonl');
  writeFileSync(jsonl, ['{"text": "good", "score": 1, "meta": {"a": 1}}', '{"text": "bad", "score": 0, "meta": {"a": 2}}'].join('\n'));
  for (const [column, message] of [['score', /column "score" holds integers \(row 1: 1\), not text/], ['meta', /column "meta" holds objects \(row 1: \{"a":1\}\), not text/]] as const) {
    const r = await runCli(['run', ...TINY_RUN_ARGS, '--dataset', jsonl, '--text-column', column, '--out', join(base, 'out')]);
    assert.ok(isCleanUserError(r), r.stderr);
    assert.equal(r.code, 2);
    assert.match(r.stderr, message);
    assert.match(r.stderr, /fix: pass --text-column/);
    assert.doesNotMatch(r.stderr, /^\[1\//m, 'refused before any cell ran');
  }
});
