/**
 * Issue 46: an engine name or adapter label too wide for its column wraps at
 * a word or punctuation boundary (after a space, `-` or `·`), never mid-word:
 * a narrow run report printed `transforme` / `rs-js`.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { renderTable, wrapWhole } from '../../reports/text-table.js';

const NAMES = ['transformers-js', 'tfjs-wasm-graph-model', 'onnx-web-wasm · chromium', 'onnx-cpu'];

/** The engine column's text of each printed row, its wrapped lines joined by `|`. */
function engineCells(width: number): string[] {
  const rows = NAMES.map((name) => ({ cells: ['tiny-bert (embedded default)', name, '12.34', '56.78', '90.12', 'VALID'] }));
  const columns = [
    { header: 'model', align: 'left' as const, whole: true },
    { header: 'engine', align: 'left' as const, whole: true },
    { header: 'mean ms', align: 'right' as const },
    { header: 'p50 ms', align: 'right' as const },
    { header: 'p99 ms', align: 'right' as const },
    { header: 'verdict', align: 'left' as const },
  ];
  const { lines } = renderTable({ title: 'SPEED', columns, rows, color: false, maxWidth: width });
  const at = lines.find((l) => /\bengine\b/.test(l))?.indexOf('engine') ?? -1;
  assert.ok(at > 0);
  const body = lines.slice(lines.findIndex((l) => /\bengine\b/.test(l)) + 1).filter((l) => !/^[-=]/.test(l) && l.trim() !== '');
  const cells: string[] = [];
  for (const line of body) {
    const rest = line.slice(at);
    const name = (rest.startsWith(' ') ? '' : rest.slice(0, rest.indexOf('  ') < 0 ? rest.length : rest.indexOf('  '))).trimEnd();
    if (name === '') continue;
    if (/\d/.test(line)) cells.push(name);
    else cells[cells.length - 1] += `|${name}`;
  }
  return cells;
}

// Beside a long model name with short words: the model column gives way, so the engine names wrap whole words at these widths.
test('a name wider than its column wraps after a space, `-` or `·`, never inside a word', () => {
  for (const width of [55, 56, 58]) {
    for (const cell of engineCells(width)) {
      const pieces = cell.split('|');
      const joined = pieces.reduce((a, p) => (a === '' ? p : /-$/.test(a) ? a + p : `${a} ${p}`), '');
      assert.ok(NAMES.includes(joined), `${width}: "${cell}" rejoins to a name (${joined})`);
      for (const [i, piece] of pieces.entries()) {
        if (i < pieces.length - 1) assert.ok(/[-·]$/u.test(piece) || NAMES.some((n) => n.includes(`${piece} `)), `${width}: "${cell}" breaks mid-word after "${piece}"`);
      }
    }
  }
});

test('wrapWhole breaks after `-`, a space or `·`, and mid-word only for a word longer than the width', () => {
  assert.deepEqual(wrapWhole('transformers-js', 13), ['transformers-', 'js']);
  assert.deepEqual(wrapWhole('onnx-web-wasm·chromium', 14), ['onnx-web-wasm·', 'chromium']);
  assert.deepEqual(wrapWhole('tfjs-wasm-graph-model', 12), ['tfjs-wasm-', 'graph-model']);
  assert.deepEqual(wrapWhole('abcdefghijkl', 5), ['abcde', 'fghij', 'kl']);
});
