import { test } from 'node:test';
import assert from 'node:assert/strict';
import { formatProgress, terminalProgress } from '../../src/hub/download-progress.js';

test('the download progress bar shows bytes, rate and ETA on a terminal and nothing otherwise', () => {
  const line = formatProgress({ file: 'onnx/model.onnx', doneBytes: 25 * 2 ** 20, totalBytes: 100 * 2 ** 20, elapsedMs: 5000 });
  assert.match(line, /^onnx\/model\.onnx  \[#####-+\]  25%  25\.0 MiB \/ 100 MiB  5\.00 MiB\/s  ETA 15\.0 s$/);
  assert.match(formatProgress({ file: 'f', doneBytes: 1024, totalBytes: null, elapsedMs: 1000 }), /^f  1\.00 KiB  1\.00 KiB\/s  ETA –$/);

  let clock = 0;
  const written: string[] = [];
  const tty = terminalProgress({ isTTY: true, write: (s: string) => written.push(s) }, () => clock);
  tty.start('onnx/model.onnx', 4000);
  clock = 1000;
  tty.advance(1000);
  clock = 1050;
  tty.advance(1000); // within the redraw interval: not drawn
  clock = 2000;
  tty.finish(true);
  assert.equal(written.length, 4, JSON.stringify(written));
  assert.ok(written[0]?.startsWith('\r'));
  assert.match(written[1] ?? '', /1000 B \/ 3\.91 KiB +1000 B\/s +ETA 3\.00 s/);
  assert.match(written[2] ?? '', /50%/);
  assert.equal(written[3], '\n');

  const piped: string[] = [];
  const quiet = terminalProgress({ isTTY: false, write: (s: string) => piped.push(s) });
  quiet.start('x', 10);
  quiet.advance(10);
  quiet.finish(true);
  assert.deepEqual(piped, []);
});
