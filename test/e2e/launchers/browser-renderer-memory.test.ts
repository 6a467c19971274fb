import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { rendererMemory, type ProcessInfoSource } from '../../../src/launchers/browser/renderer-memory.js';
import { testOutputDir } from '../../helpers/test-cache.js';

/**
 * A browser cell's RSS is the renderer that ran its page, picked as the
 * renderer whose CPU time grew most over the loop (CDP names no page→process
 * link, and Chromium keeps spare renderers), read from the kernel's mark
 * after resetting it. A fake /proc and process list make each part checkable.
 */
function fakeProc(root: string, pid: number, rssKb: number, hwmKb: number, writableClearRefs = true): void {
  mkdirSync(join(root, String(pid)), { recursive: true });
  writeFileSync(join(root, String(pid), 'status'), `Name:\tchromium\nVmHWM:\t${hwmKb} kB\nVmRSS:\t${rssKb} kB\n`);
  if (writableClearRefs) writeFileSync(join(root, String(pid), 'clear_refs'), '');
  else mkdirSync(join(root, String(pid), 'clear_refs'), { recursive: true }); // a directory: the write fails
}

function source(calls: { type: string; id: number; cpuTime: number }[][]): ProcessInfoSource {
  let i = 0;
  return { send: async () => ({ processInfo: calls[Math.min(i++, calls.length - 1)] ?? [] }) };
}

test('the renderer with the most CPU time over the loop is the one measured, with its kernel mark reset first', async () => {
  const proc = testOutputDir('renderer-memory');
  fakeProc(proc, 101, 80_000, 90_000); // a spare renderer
  fakeProc(proc, 202, 300_000, 900_000); // the page's renderer
  const probe = rendererMemory(async () =>
    source([
      [{ type: 'browser', id: 1, cpuTime: 5 }, { type: 'renderer', id: 101, cpuTime: 0.1 }, { type: 'renderer', id: 202, cpuTime: 2 }],
      [{ type: 'browser', id: 1, cpuTime: 9 }, { type: 'renderer', id: 101, cpuTime: 0.2 }, { type: 'renderer', id: 202, cpuTime: 6.5 }],
    ]),
    proc,
  );
  await probe.begin();
  assert.equal(readFileSync(join(proc, '202', 'clear_refs'), 'utf8'), '5', 'the high-water mark is reset before the loop');
  // The loop: the page's renderer peaks at 700 MB, then settles at 400 MB.
  fakeProc(proc, 202, 400_000, 700_000);
  const w = await probe.end();
  assert.ok(!('unavailable' in w), JSON.stringify(w));
  if ('unavailable' in w) return;
  assert.equal(w.label, 'Chromium renderer');
  assert.equal(w.baselineRssBytes, 300_000 * 1024);
  assert.equal(w.peakRssBytes, 700_000 * 1024);
  assert.match(w.process, /pid 202\b/);
  assert.match(w.process, /over the timed loop/);
});

test('a mark that cannot be reset is reported as the renderer lifetime peak, not as the loop peak', async () => {
  const proc = testOutputDir('renderer-memory-noreset');
  fakeProc(proc, 7, 200_000, 500_000, false);
  const list = [{ type: 'renderer', id: 7, cpuTime: 1 }];
  const probe = rendererMemory(async () => source([list, [{ type: 'renderer', id: 7, cpuTime: 3 }]]), proc);
  await probe.begin();
  const w = await probe.end();
  assert.ok(!('unavailable' in w) && /since it started \(the mark could not be reset\)/.test(w.process), JSON.stringify(w));
});

test('no readable renderer gives the reason instead of figures, so the row can say they are the driver\'s', async () => {
  const proc = testOutputDir('renderer-memory-none');
  const probe = rendererMemory(async () => source([[{ type: 'renderer', id: 999_999, cpuTime: 1 }]]), proc);
  await probe.begin();
  const w = await probe.end();
  assert.ok('unavailable' in w, JSON.stringify(w));
  assert.match(w.unavailable, /no renderer process that \/proc can read.*Node driver's figures/);
  // And a renderer that exits during the loop.
  fakeProc(proc, 55, 1000, 1000);
  const gone = rendererMemory(async () => source([[{ type: 'renderer', id: 55, cpuTime: 1 }], []]), proc);
  await gone.begin();
  const w2 = await gone.end();
  assert.ok('unavailable' in w2 && /has gone/.test(w2.unavailable), JSON.stringify(w2));
});
