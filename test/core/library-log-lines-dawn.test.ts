import assert from 'node:assert/strict';
import { PassThrough, Writable } from 'node:stream';
import { test } from 'node:test';
import { forwardStderr, isLibraryLogLine } from '../../src/core/library-logs.js';

test("Dawn's XDG_RUNTIME_DIR line stays out of a WebGPU engine's output; other error lines pass", async () => {
  const from = new PassThrough();
  let text = '';
  const out = new Writable({ write(chunk: Buffer, _enc, done) { text += chunk.toString(); done(); } });
  const done = forwardStderr(from, out);
  from.write('error: XDG_RUNTIME_DIR is invalid or not set in the environment.\n');
  from.write('error: XDG_RUNTIME_DIR is invalid or not set in the environment.\n');
  from.end('error: the adapter was lost\n');
  await done;
  assert.equal(text, 'error: the adapter was lost\n');
  assert.equal(isLibraryLogLine('error: XDG_RUNTIME_DIR is invalid or not set in the environment.'), true);
});
