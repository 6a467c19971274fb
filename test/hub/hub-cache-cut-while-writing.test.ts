import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { writeStreamAtomic } from '../../src/hub/hub-cache.js';
import { testOutputDir } from '../helpers/test-cache.js';

/**
 * A connection that drops while the previous chunk is still being written:
 * the stream is destroyed with a write in flight, which then reports
 * ERR_STREAM_DESTROYED on the stream. Without a listener that is an uncaught
 * exception ending the whole process (it ended a CI run's test file); the
 * cut must instead reject with its own error and leave no file behind.
 */
test('a download cut while a chunk is still being written rejects with the cut, leaves no file, and throws nothing uncaught', async () => {
  const uncaught: unknown[] = [];
  const onUncaught = (err: unknown) => uncaught.push(err);
  process.on('uncaughtException', onUncaught);
  try {
    const dir = testOutputDir('hub-cut-while-writing');
    for (let i = 0; i < 20; i++) {
      const target = join(dir, `model-${i}.onnx`);
      // Small chunks (under the stream's 16 KiB high-water mark) are handed to fs.write at once, so the
      // second is still being written when the cut right after it destroys the stream.
      async function* cut(): AsyncGenerator<Uint8Array> {
        yield new Uint8Array(1024).fill(i);
        await new Promise((r) => setTimeout(r, 5));
        yield new Uint8Array(1024).fill(i);
        throw new Error('connection reset by peer');
      }
      await assert.rejects(writeStreamAtomic(target, cut(), 8192), /connection reset by peer/);
    }
    // Late stream errors arrive on the next turns of the event loop.
    await new Promise((r) => setTimeout(r, 50));
    assert.deepEqual(uncaught, []);
    assert.deepEqual(readdirSync(dir), [], 'neither the file nor its temporary is left');
    assert.ok(!existsSync(join(dir, 'model-0.onnx')));
  } finally {
    process.off('uncaughtException', onUncaught);
  }
});
