/**
 * Issue 47, point 7: docs/cli.md states what the code has. Every flag of
 * every command (read from the option tables the CLI is built from) appears
 * in the synopsis, on its command, and has a row under "Every flag" with the
 * default its help names and the range OPTION_RANGES gives it; a default the
 * hand-written prose names is the table's. (test/tools/cli-doc.test.ts checks
 * that the generated parts are exactly what tools/cli-doc.ts writes; this file
 * checks what they must say, whoever wrote them.)
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { commands } from '../../src/cli/command-specs.js';
import type { FlagSpec } from '../../src/core/flag-spec.js';
import { OPTION_RANGES, type OptionRange } from '../../src/core/option-ranges.js';
import { DEFAULT_ROUNDS, DEFAULT_ROWS } from '../../src/core/stop-rule.js';
import { proseOf, splitDefault } from '../../tools/cli-doc.js';

const DOC = readFileSync(new URL('../../../docs/cli.md', import.meta.url), 'utf8');
const SYNOPSIS = DOC.slice(DOC.indexOf('## Synopsis'), DOC.indexOf('```', DOC.indexOf('```', DOC.indexOf('## Synopsis')) + 3));
const FLAGS = DOC.slice(DOC.indexOf('## Every flag'));

/** One command's part of a section: from its line to the next command's. */
function partOf(section: string, start: string, next: string): string | null {
  const at = section.indexOf(start);
  if (at < 0) return null;
  const end = section.indexOf(next, at + 1);
  return section.slice(at, end < 0 ? undefined : end);
}

test('every flag of every command is in the synopsis of docs/cli.md, on its command', () => {
  const missing: string[] = [];
  for (const c of commands()) {
    const part = partOf(SYNOPSIS, `inferbench ${c.name} `, '\ninferbench ');
    if (part === null) {
      missing.push(`inferbench ${c.name}`);
      continue;
    }
    for (const f of c.flags) if (f.name !== 'help' && !new RegExp(`--${f.name}\\b`, 'u').test(part)) missing.push(`${c.name} --${f.name}`);
  }
  assert.deepEqual(missing, [], 'flags the code has and docs/cli.md does not');
});

test("every flag of every command has a row under Every flag, with its help's default and its range's bounds", () => {
  const wrong: string[] = [];
  for (const c of commands()) {
    const part = partOf(FLAGS, `### \`inferbench ${c.name}\``, '\n### ');
    if (part === null) {
      wrong.push(`no table for inferbench ${c.name}`);
      continue;
    }
    for (const f of c.flags) {
      if (f.name === 'help') continue;
      const row = part.split('\n').find((line) => line.startsWith(`| \`--${f.name}\``) || line.startsWith(`| \`--${f.name} `));
      if (row === undefined) {
        wrong.push(`${c.name} --${f.name}: no row`);
        continue;
      }
      const cells = row.split(/(?<!\\)\|/).map((s) => s.trim().replace(/\\\|/g, '|'));
      const { defaultText } = splitDefault(f.help);
      if (defaultText !== '' && cells[2] !== defaultText) wrong.push(`${c.name} --${f.name}: default "${cells[2] ?? ''}", the table's is "${defaultText}"`);
      if (f.range !== undefined) {
        const range: OptionRange = OPTION_RANGES[f.range];
        const scale = range.flagScale ?? 1;
        const bound = (n: number) => n.toLocaleString('en-US', { maximumFractionDigits: 6 }).replace(/,/g, ',?');
        const bounds = [range.min / scale, ...(range.maxBasis === undefined ? [range.max / scale] : [])];
        for (const b of bounds) if (!new RegExp(`(?<!\\d[.,]?)${bound(b)}(?!\\d|[.,]\\d)`).test(cells[3] ?? '')) wrong.push(`${c.name} --${f.name}: range "${cells[3] ?? ''}" lacks ${b}`);
      }
    }
  }
  assert.deepEqual(wrong, []);
});

/**
 * Defaults the prose names: "`--split` (default `train`)" is --split's, and
 * any other "(default X" or "; default X" in a bullet that opens with a
 * flag is that flag's. They are run's flags, which the prose describes.
 */
function proseDefaults(prose: string): { flag: string; value: string }[] {
  const found: { flag: string; value: string }[] = [];
  for (const line of prose.split('\n')) {
    const lead = /^- `--([a-z-]+)/.exec(line)?.[1];
    for (const m of line.matchAll(/(?:`--([a-z-]+)[^`]*` )?[(;] ?default:? `?([^`,;)\s]+)/g)) {
      const flag = m[1] ?? lead;
      if (flag !== undefined && m[2] !== undefined) found.push({ flag, value: m[2] });
    }
  }
  return found;
}

test("every default the prose of docs/cli.md names is the one run's options table gives", () => {
  const run = commands().find((c) => c.name === 'run');
  assert.ok(run);
  const named = proseDefaults(proseOf(DOC));
  // The ones the prose has today, so a rewording that hides them from this check is noticed.
  assert.deepEqual(named.map((n) => n.flag).sort(), ['browsers', 'limit', 'rounds', 'split']);
  for (const { flag, value } of named) {
    const spec: FlagSpec | undefined = run.flags.find((f) => f.name === flag);
    assert.ok(spec, `docs/cli.md names a default of --${flag}, which run does not take`);
    const first: string | undefined = splitDefault(spec.help).defaultText.split(/[\s,;]/)[0];
    assert.equal(value, first, `docs/cli.md says --${flag} defaults to ${value}; run's options table says ${first}`);
  }
  assert.ok(named.some((n) => n.flag === 'limit' && n.value === String(DEFAULT_ROWS)));
  assert.ok(named.some((n) => n.flag === 'rounds' && n.value === String(DEFAULT_ROUNDS)));
});

/** The command(s) each page describes, whose options tables its flag defaults must match, first one that has the flag. */
const PAGES: Readonly<Record<string, readonly string[]>> = {
  'docs/load.md': ['load'],
  'docs/generate.md': ['generate'],
  'docs/train.md': ['train'],
  'docs/distributed.md': ['worker', 'run'],
  'docs/measurement.md': ['run'],
  'docs/engines.md': ['run'],
  'docs/models.md': ['run'],
  'docs/compare.md': ['compare'],
  'docs/dashboard.md': ['serve'],
};

test("every default the other docs name beside a flag (`--duration` seconds (default 5)) is its command's", () => {
  const wrong: string[] = [];
  let named = 0;
  for (const [page, names] of Object.entries(PAGES)) {
    const text = readFileSync(new URL(`../../../${page}`, import.meta.url), 'utf8');
    for (const m of text.matchAll(/`--([a-z-]+)[^`]*`[^`()\n]{0,60}\(default:? `?([^\s`),;:]+)/g)) {
      const [, flag = '', value = ''] = m;
      const spec = names.map((n) => commands().find((c) => c.name === n)?.flags.find((f) => f.name === flag)).find((f) => f !== undefined);
      if (spec === undefined) continue;
      named++;
      const first = splitDefault(spec.help).defaultText.split(/[\s,;]/)[0];
      if (value !== first) wrong.push(`${page}: --${flag} defaults to ${value}; the options table says ${first ?? 'nothing'}`);
    }
  }
  assert.ok(named >= 8, `only ${named} defaults found: has the pattern stopped matching?`);
  assert.deepEqual(wrong, []);
});
