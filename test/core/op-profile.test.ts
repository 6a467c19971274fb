import assert from 'node:assert/strict';
import { test } from 'node:test';
import { outermostEvents, summarizeProfile, type NodeEvent } from '../../src/core/op-profile.js';
import { recordedCapture } from '../helpers/profile-traces.js';

const ev = (node: string, opType: string, startUs: number | null, durUs: number, batch = 0): NodeEvent => ({ batch, node, opType, startUs, durUs });

test('nested and overlapping events count once: the outermost is kept, an overlap only past the kept end', () => {
  const kept = outermostEvents([ev('outer', 'Attention', 0, 100), ev('inner', 'Softmax', 10, 20), ev('tail', 'Add', 90, 30), ev('next', 'Mul', 200, 10)]);
  assert.deepEqual(kept.map((e) => [e.node, e.startUs, e.durUs]), [['outer', 0, 100], ['tail', 100, 20], ['next', 200, 10]]);
});

test('outside kernels = engine time − kernel sum per batch; shares of a cell sum to 1; kernel time never exceeds engine time', () => {
  const p = summarizeProfile({ source: 'test', events: [ev('a', 'MatMul', 0, 3000), ev('b', 'Add', 3000, 1000), ev('a', 'MatMul', 0, 5000, 1)] }, [{ engineMs: 10, items: 1 }, { engineMs: 10, items: 1 }]);
  assert.equal(p.engineMsPerBatch, 10);
  assert.equal(p.kernelMsPerBatch, 4.5);
  assert.equal(p.outsideMsPerBatch, 5.5);
  assert.deepEqual(p.ops.map((o) => [o.opType, o.opClass, o.callsPerBatch, o.msPerBatch, o.share]), [['MatMul', 'matmul', 1, 4, 0.4], ['Add', 'elementwise', 0.5, 0.5, 0.05]]);
  const over = summarizeProfile({ source: 'test', events: [ev('a', 'MatMul', null, 8000), ev('b', 'Foo', null, 8000)] }, [{ engineMs: 10, items: 1 }]);
  assert.equal(over.kernelMsPerBatch, 10);
  assert.equal(over.outsideMsPerBatch, 0);
  assert.match((over.notes ?? []).join(), /scaled by 0\.625/);
  assert.deepEqual(over.unclassified, ['Foo']);
  const none = summarizeProfile({ source: 'test', events: [], unattributed: 'no instrument' }, [{ engineMs: 7, items: 1 }]);
  assert.equal(none.unattributed, 'no instrument');
  assert.equal(none.outsideMsPerBatch, 7);
});

for (const [file, source, top] of [['tfjs-translator-bert.json', 'per-node wall (synced)', 'FusedMatMul'], ['tf-profile-bert.json', 'tf.profile kernels', null]] as const) {
  test(`a recorded ${source} capture (${file}) sums per op type within its engine time`, () => {
    const capture = recordedCapture(file);
    assert.equal(capture.source, source);
    const calls = new Set(capture.events.map((e) => e.batch));
    assert.deepEqual([...calls].sort(), [0, 1]);
    const kernelUs = capture.events.reduce((a, e) => a + e.durUs, 0) / 2;
    // An engine time just above the recorded kernel sum: the remainder is exactly the difference.
    const engineMs = kernelUs / 1000 + 1;
    const p = summarizeProfile(capture, [{ engineMs, items: 2 }, { engineMs, items: 2 }]);
    assert.ok(Math.abs(p.kernelMsPerBatch - kernelUs / 1000) < 1e-9);
    assert.ok(Math.abs(p.outsideMsPerBatch - 1) < 1e-9);
    const shares = p.ops.reduce((a, o) => a + o.share, 0) + p.outsideMsPerBatch / p.engineMsPerBatch;
    assert.ok(Math.abs(shares - 1) < 1e-9);
    if (top) assert.equal(p.ops.find((o) => o.opClass === 'matmul')?.opType, top);
    assert.ok(!capture.events.some((e) => e.node.endsWith('__op')), 'tf.profile\'s op scopes (fusedMatMul__op) enclose kernels listed apart, so they are dropped');
  });
}
