/**
 * Issue 34, item 2, on stderr: a fresh `COLUMNS=100 inferbench run` printed
 * its header at 193 characters (the seven engines' names) and a progress
 * line at 119. The header names as many engines as fit and says the report
 * lists them all; every progress line and warning fits the width (COLUMNS,
 * else stderr's terminal, else 80), wrapped whole; `--wide` keeps them whole.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ProgressArea } from '../../src/cli/terminal-width.js';
import { startLine } from '../../src/cli/run-exit.js';

const ENGINES = ['onnx-cpu', 'onnx-wasm', 'tfjs-wasm', 'tfjs-cpu', 'tfjs-wasm-graph-model', 'tfjs-cpu-graph-model', 'transformers-js'];
const HEAD = 'inferbench: run 2026-11-27T22-51-14Z-4bbb2b: tiny-bert';
const PROGRESS = '[11/14] tfjs-cpu-graph-model, batch 1: no whole pass (saw 12 of 16 batches of one pass), 161 ms mean in 2 rounds, NOISY';

function sink(isTTY: boolean, columns?: number) {
  const written: string[] = [];
  return { written, stream: { isTTY, ...(columns !== undefined ? { columns } : {}), write: (t: string) => written.push(t) } };
}

/** Lengths of what shows on each line: a status line is wiped (`\r` + erase line) before the next is written. */
const lengths = (written: readonly string[]): number[] => written.join('').split(/\n|\r\u001b\[2K/u).filter((l) => l !== '').map((l) => [...l].length);

test('the run header names as many engines as fit the width and says the report lists them all; --wide keeps every name', () => {
  const tail = ' at batch 1, 8';
  for (const width of [120, 140]) {
    const line = startLine(HEAD, ENGINES, tail, width);
    assert.ok([...line].length <= width, `${width}: ${line}`);
    assert.match(line, /on 7 engines \(onnx-cpu, .*…: the report lists all 7\) at batch 1, 8$/u);
  }
  // Room for no name: the count and where the list is (the progress area wraps what is still too wide).
  assert.equal(startLine(HEAD, ENGINES, tail, 100), `${HEAD} on 7 engines (the report lists them) at batch 1, 8`);
  assert.equal(startLine(HEAD, ENGINES, tail, null), `${HEAD} on ${ENGINES.join(', ')}${tail}`);
  assert.equal(startLine(HEAD, ['onnx-cpu', 'onnx-wasm'], tail, 100), `${HEAD} on onnx-cpu, onnx-wasm${tail}`, 'a list that fits stays whole');
});

test('progress lines and warnings fit COLUMNS off a terminal, stderr\'s own width on one, and wrap whole; --wide keeps them whole', () => {
  const piped = sink(false);
  const area = new ProgressArea(false, piped.stream, { env: { COLUMNS: '100' } });
  area.line(PROGRESS);
  area.message(`inferbench: warning: ${'host busy in round 1: other processes used 89% of CPU time (1.8 of 2 cores), net of inferbench\'s own (above 25%)'}`);
  assert.ok(lengths(piped.written).every((n) => n <= 100), piped.written.join(''));
  assert.equal(piped.written[0]?.replace(/\n\s*/gu, ' ').trim(), PROGRESS, 'nothing of the line is lost');

  const tty = sink(true, 60);
  const narrow = new ProgressArea(false, tty.stream, { env: {} });
  assert.equal(narrow.width, 60);
  narrow.status(`  round 2/3 ${PROGRESS}`);
  narrow.line(PROGRESS);
  assert.ok(lengths(tty.written).every((n) => n <= 60), tty.written.join(''));

  const wide = sink(false);
  new ProgressArea(false, wide.stream, { wide: true, env: { COLUMNS: '100' } }).line(PROGRESS);
  assert.deepEqual(wide.written, [`${PROGRESS}\n`]);

  const quiet = sink(false);
  const silent = new ProgressArea(true, quiet.stream, { env: { COLUMNS: '100' } });
  silent.line(PROGRESS);
  silent.message('inferbench: warning: kept with --quiet');
  assert.deepEqual(quiet.written, ['inferbench: warning: kept with --quiet\n']);
});
