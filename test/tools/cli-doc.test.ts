import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { CLI_DOC_PATH, commandSynopsis, rangeDocText, splitDefault, withCliDoc } from '../../tools/cli-doc.js';

test('docs/cli.md holds the synopsis and flag tables the options tables make (regenerate: node dist/tools/cli-doc.js)', async () => {
  const page = readFileSync(CLI_DOC_PATH, 'utf8');
  assert.equal(page, await withCliDoc(page));
});

test("a help's last `; default …` clause is the default, and a sentence after it stays with the help", () => {
  assert.deepEqual(splitDefault('rows per cell; default 16 (the default run fits 90 s; the full sweep is --limit 256)'), { what: 'rows per cell', defaultText: '16 (the default run fits 90 s; the full sweep is --limit 256)' });
  assert.deepEqual(splitDefault('address to listen on; default 127.0.0.1. Any other address requires the token'), { what: 'address to listen on. Any other address requires the token', defaultText: '127.0.0.1' });
  assert.deepEqual(splitDefault('split of a Hub dataset; default: train'), { what: 'split of a Hub dataset', defaultText: 'train' });
  assert.deepEqual(splitDefault('skip the charts'), { what: 'skip the charts', defaultText: '' });
});

test("ranges read in the flag's unit, and a machine's bound is named, not counted", () => {
  assert.equal(rangeDocText('batchSizes'), '1–4096 rows per batch');
  assert.equal(rangeDocText('stop.minTimeMs'), '0–3600 s');
  assert.equal(rangeDocText('limit'), '1–10,000,000 rows');
  assert.equal(rangeDocText('maxCv'), 'above 0, at most 100');
  assert.equal(rangeDocText('threads'), '1 to 4 × the cores of the machine');
});

test("a command's synopsis keeps the usage's positionals and needed flags, then every other flag, wrapped under its name", () => {
  const text = commandSynopsis({
    name: 'demo',
    summary: 's',
    usage: 'inferbench demo <id> --format F [--out DIR]',
    flags: [
      { name: 'format', kind: 'value', arg: 'F', help: 'h' },
      { name: 'out', kind: 'value', arg: 'DIR', help: 'h' },
      { name: 'model', kind: 'value', arg: 'DIR', repeatable: true, help: 'h' },
      ...Array.from({ length: 12 }, (_, i) => ({ name: `flag-${i}`, kind: 'boolean' as const, help: 'h' })),
      { name: 'help', kind: 'boolean', help: 'h' },
    ],
  });
  const lines = text.split('\n');
  assert.match(lines[0] ?? '', /^inferbench demo <id> --format F \[--out DIR\] \[--model DIR\]\.\.\. \[--flag-0\]/);
  assert.ok(lines.length > 1 && lines.slice(1).every((l) => l.startsWith(' '.repeat('inferbench demo '.length) + '[')), text);
  assert.ok(lines.every((l) => l.length <= 120), text);
  assert.doesNotMatch(text, /--help|\[--format/);
});
