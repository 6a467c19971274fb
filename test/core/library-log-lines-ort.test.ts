import assert from 'node:assert/strict';
import { PassThrough, Writable } from 'node:stream';
import { test } from 'node:test';
import { forwardStderr, ortLogSeverity } from '../../src/core/library-logs.js';

test("onnxruntime's coloured warning lines never reach a non-TTY report, and an error line keeps its words but loses its escapes", async () => {
  const from = new PassThrough();
  let text = '';
  const out = new Writable({ write(chunk: Buffer, _enc, done) { text += chunk.toString(); done(); } });
  const done = forwardStderr(from, out);
  from.write('\x1b[0;93m2026-11-27 13:00:00.123456789 [W:onnxruntime:, session_state.cc:1166 VerifyEachNodeIsAssignedToAnEp] Some nodes were not assigned\x1b[m\n');
  from.write('2026-11-27 13:00:00.2 [I:onnxruntime:, inference_session.cc:42 Init] info\n');
  from.write('\x1b[1;31m2026-11-27 13:00:00.3 [E:onnxruntime:, sequential_executor.cc:516 ExecuteKernel] Non-zero status\x1b[m\n');
  from.end('inferbench: a line of our own\n');
  await done;
  assert.equal(text, '2026-11-27 13:00:00.3 [E:onnxruntime:, sequential_executor.cc:516 ExecuteKernel] Non-zero status\ninferbench: a line of our own\n');
  assert.equal(ortLogSeverity({}), 3, 'sessions log errors only');
  assert.equal(ortLogSeverity({ INFERBENCH_VERBOSE: '1' }), 2, '--verbose keeps the warnings');
});
