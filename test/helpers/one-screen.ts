/**
 * What the one-screen tests of `load`, `generate` and `train` check alike
 * (issue 47, item 1): a report of at most 45 lines whose lines fit the
 * width (the paths written stay whole, to be copied), with a header, a
 * blank line, and the answer before the first table.
 */
import assert from 'node:assert/strict';

/** Lines wider than `width`, leaving out the lines of paths written, the history line and `show`'s folder line, which stay whole to be copied. */
export function linesOver(text: string, width: number): string[] {
  return text.split('\n').filter((l) => [...l].length > width && !/^ {2}\/\S+$/u.test(l) && !l.startsWith('History: ') && !l.startsWith('Wrote to /') && !l.startsWith('  folder:'));
}

/** Asserts the one-screen shape of a command's stdout at 100 columns and returns its lines and its answer (between the header's blank line and the first table). */
export function oneScreen(stdout: string): { readonly lines: readonly string[]; readonly answer: string } {
  const lines = stdout.trimEnd().split('\n');
  assert.ok(lines.length <= 45, `${lines.length} lines:\n${stdout}`);
  assert.deepEqual(linesOver(stdout, 100), [], 'lines over 100 characters');
  const blank = lines.indexOf('');
  const firstTable = lines.findIndex((l) => l.startsWith('='));
  assert.ok(blank > 0 && firstTable > blank, stdout);
  return { lines, answer: lines.slice(blank + 1, firstTable).join('\n') };
}
