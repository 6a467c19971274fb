/**
 * No code branches on a scenario's word (issue 49): a scenario's parts are
 * asked of its registration (src/runs/scenario-registry.ts), so a new
 * scenario, a plug-in's or a test's included, is served everywhere without
 * an edit elsewhere. The dashboard's web JS compared `views.kind === 'load'`
 * and kept a table of tabs by kind, so a scenario defined outside it got no
 * tabs and no tables; the history guessed a record's kind from its fields
 * (`'probes' in cell`). This scans every .ts and .js under src/, engines/,
 * reports/ and datasets/ for either, and names each file:line.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
const FOLDERS = ['src', 'engines', 'reports', 'datasets'];

/** The words scenarios, their records and their routes are known by (older record words included). */
const WORD = `(?:run|runs|classify|classification|load|server|generate|generation|train|training)`;
/** An expression naming a kind or a command: `kind`, `views.kind`, `entry.config.command`, `entryKind(entry)`, `recordKindOf(r)`. */
const KIND = String.raw`[\w$.?]*(?:kind|command)(?:\([^()]*\))?`;
const QUOTE = `['"\`]`;

/** Each pattern with what it finds. */
const PATTERNS: readonly (readonly [RegExp, string])[] = [
  [new RegExp(String.raw`\b${KIND}\s*[!=]==?\s*${QUOTE}${WORD}${QUOTE}`, 'i'), 'compares a kind or command with a scenario word'],
  [new RegExp(String.raw`${QUOTE}${WORD}${QUOTE}\s*[!=]==?\s*${KIND}\b`, 'i'), 'compares a scenario word with a kind or command'],
  [new RegExp(String.raw`\bcase\s+${QUOTE}${WORD}${QUOTE}\s*:`, 'i'), 'switches on a scenario word'],
  [new RegExp(String.raw`\b[\w$]*_BY_KIND\b|\bbyKind\[`), 'looks a scenario up in a table of its own'],
  [new RegExp(String.raw`${QUOTE}(?:probes|peak|ttft|tpot|stepTime|training|firstLoss|decodeTokensPerSecond)${QUOTE}\s+in\s+[\w$.]+`), "guesses a record's kind from its fields"],
];

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (name === 'node_modules') return [];
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return /\.(?:c|m)?[jt]s$/.test(name) && !name.endsWith('.d.ts') ? [path] : [];
  });
}

/** The line without its comment, so a comment that tells of an old comparison does not count. */
function code(line: string): string {
  const trimmed = line.trimStart();
  if (trimmed.startsWith('//') || trimmed.startsWith('*') || trimmed.startsWith('/*')) return '';
  return line.replace(/\s\/\/.*$/, '');
}

/** Every `file:line  what` the patterns find in `files`. */
function kindComparisons(files: readonly string[]): string[] {
  const found: string[] = [];
  for (const file of files) {
    readFileSync(file, 'utf8')
      .split('\n')
      .forEach((line, i) => {
        const text = code(line);
        for (const [pattern, what] of PATTERNS) {
          if (pattern.test(text)) found.push(`${relative(ROOT, file).split(sep).join('/')}:${i + 1}  ${what}: ${line.trim().slice(0, 120)}`);
        }
      });
  }
  return found;
}

test('no source file compares a kind or command with a scenario word, switches on one, or guesses one from fields', () => {
  const files = FOLDERS.flatMap((f) => sourceFiles(join(ROOT, f)));
  assert.ok(files.some((f) => f.endsWith(join('src', 'dashboard', 'web', 'views.js'))), `expected the sources, web JS included, under ${ROOT}`);
  assert.deepEqual(kindComparisons(files), []);
});

test('the scan finds each way of branching on a kind', () => {
  const samples = [
    "if (kind === 'load') return x;",
    "below.innerHTML = views.kind === 'generate' ? a : b;",
    "const runs = entries.filter((e) => entryKind(e) === 'run');",
    "if (config.command !== 'train') return;",
    "if ('generate' == record?.kind) go();",
    "case 'load':",
    'const tabs = TABS_BY_KIND[k];',
    "if ('probes' in cell) return 'load';",
    "const t = 'ttft' in record.cells[0];",
  ];
  for (const line of samples) assert.ok(PATTERNS.some(([p]) => p.test(code(line))), line);
  for (const line of ["if (method === 'run') go();", "if ('reason' in found) return;", "// kind === 'load' was compared here", "if (state.tab === 'compare') x();", "if (parts[0] === 'runs') y();", 'switch (column.kind) {', "case 'float':"]) {
    assert.ok(!PATTERNS.some(([p]) => p.test(code(line))), `not a kind comparison: ${line}`);
  }
});
