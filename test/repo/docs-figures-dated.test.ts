/**
 * Issue 47, point 7: every figure in the docs carries its date and machine,
 * or is removed. A sentence that reports a measurement (took, measured,
 * printed, verified, ran, costs… with a time, size or rate) must sit in a
 * section (heading to heading) that dates it (YYYY-MM-DD) and names the
 * machine. Targets and settings ("target: under 20 ms", "--max-time 15 s")
 * are no measurement; a sentence naming a target is left out. Each
 * section of docs/benchmarks.md opens with its own "*Printed <date> …*".
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';

const ROOT = new URL('../../../', import.meta.url);
const FILES = ['README.md', ...readdirSync(new URL('docs/', ROOT)).filter((f) => f.endsWith('.md')).map((f) => `docs/${f}`)];
const FIGURE = /\d(?:[\d.,]*\d)? ?(?:ms|µs|s|CPU-s|MiB|MB|GiB|GB|samples\/s|req\/s|requests\/s)\b/;
const REPORTS = /\b(?:took|takes|measured|printed|verified|ran|costs?)\b/i;
const DATE = /\b20\d\d-\d\d-\d\d\b/;
const MACHINE = /\b(?:machine|VM|H100|H200|NVIDIA|GPU|cores?)\b/;

/**
 * The file's sections, code blocks left out (a command's output is dated by
 * the prose around it), and flag tables (`| \`--duration S\` | 5 | … measured
 * arrivals`: help, not a measurement).
 */
function sections(text: string): string[] {
  return text
    .replace(/```[\s\S]*?```/g, '')
    .replace(/^\| `--.*$/gm, '')
    .split(/\n(?=#+ )/);
}

test('every sentence of the docs that reports a measured figure sits in a section with its date and machine', () => {
  const undated: string[] = [];
  for (const file of FILES) {
    for (const section of sections(readFileSync(new URL(file, ROOT), 'utf8'))) {
      if (DATE.test(section) && MACHINE.test(section)) continue;
      for (const sentence of section.split(/(?<=[.;])\s+/)) {
        if (FIGURE.test(sentence) && REPORTS.test(sentence) && !/\btarget\b/i.test(sentence)) undated.push(`${file}: ${sentence.slice(0, 160)}`);
      }
    }
  }
  assert.deepEqual(undated, []);
});

test('each section of docs/benchmarks.md that has figures says when and where they were printed', () => {
  const text = readFileSync(new URL('docs/benchmarks.md', ROOT), 'utf8');
  const undated = sections(text)
    .filter((s) => s.startsWith('## ') && FIGURE.test(s))
    .filter((s) => !(DATE.test(s) && MACHINE.test(s)))
    .map((s) => s.split('\n')[0]);
  assert.deepEqual(undated, []);
});
