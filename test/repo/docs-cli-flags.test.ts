/**
 * Issue 47, point 7: docs/cli.md states what the code has. Every flag of
 * every command (read from the option tables the CLI is built from) appears
 * in the synopsis, and the defaults the docs name match the code's.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { commands } from '../../src/cli/command-specs.js';
import { DEFAULT_ROWS } from '../../src/core/stop-rule.js';

const DOC = readFileSync(new URL('../../../docs/cli.md', import.meta.url), 'utf8');
const SYNOPSIS = DOC.slice(DOC.indexOf('## Synopsis'), DOC.indexOf('```', DOC.indexOf('```', DOC.indexOf('## Synopsis')) + 3));

test('every flag of every command is in the synopsis of docs/cli.md, on its command', () => {
  const missing: string[] = [];
  for (const c of commands()) {
    // The command's part of the synopsis: from its line to the next command's.
    const start = SYNOPSIS.indexOf(`inferbench ${c.name} `);
    if (start < 0) {
      missing.push(`inferbench ${c.name}`);
      continue;
    }
    const next = SYNOPSIS.indexOf('\ninferbench ', start + 1);
    const part = SYNOPSIS.slice(start, next < 0 ? undefined : next);
    for (const f of c.flags) if (f.name !== 'help' && !new RegExp(`--${f.name}\\b`, 'u').test(part)) missing.push(`${c.name} --${f.name}`);
  }
  assert.deepEqual(missing, [], 'flags the code has and docs/cli.md does not');
});

test('the defaults docs/cli.md names are the code\'s', () => {
  assert.match(DOC, new RegExp(`\`--limit N\`: rows streamed per cell \\(default ${DEFAULT_ROWS},`, 'u'));
});
