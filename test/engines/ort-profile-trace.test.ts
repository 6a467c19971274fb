import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ortTraceEvents } from '../../engines/onnx/ort-profile.js';
import { summarizeProfile } from '../../src/core/op-profile.js';
import { recordedTrace } from '../helpers/profile-traces.js';

for (const file of ['ort-node-bert.json', 'ort-web-bert.json']) {
  test(`ORT's recorded trace (${file}): only _kernel_time node events, each in its model_run, the last runs kept`, () => {
    const trace = recordedTrace(file) as unknown[];
    const both = ortTraceEvents(trace, 2);
    assert.equal(both.source, 'ort profiler');
    const nodes = (trace as { cat?: string; name?: string }[]).filter((e) => e.cat === 'Node' && e.name?.endsWith('_kernel_time')).length;
    assert.equal(both.events.length, nodes);
    assert.deepEqual([...new Set(both.events.map((e) => e.batch))].sort(), [0, 1]);
    const last = ortTraceEvents(trace, 1);
    assert.equal(last.events.length, nodes / 2);
    assert.ok(last.events.every((e) => e.batch === 0 && e.provider === 'CPUExecutionProvider'));
    // Engine time: each model_run span; the kernels sit inside it, so the remainder is never negative.
    const runs = (trace as { name?: string; dur?: number }[]).filter((e) => e.name === 'model_run').map((e) => (e.dur ?? 0) / 1000);
    const p = summarizeProfile(both, runs.map((engineMs) => ({ engineMs, items: 1 })));
    assert.ok(p.kernelMsPerBatch <= p.engineMsPerBatch && p.outsideMsPerBatch >= 0);
    assert.equal(p.notes, undefined, 'no scaling was needed');
    assert.deepEqual(p.unclassified, []);
    assert.equal(p.ops.find((o) => o.opType === 'MatMul')?.callsPerBatch, 14);
  });
}

test('a WebGPU provider\'s node events make the source "host dispatch only"', () => {
  const trace = [
    { cat: 'Session', name: 'model_run', ts: 0, dur: 100 },
    { cat: 'Node', name: 'mm_kernel_time', ts: 10, dur: 5, args: { op_name: 'MatMul', provider: 'WebGpuExecutionProvider' } },
    { cat: 'Node', name: 'mm_fence_before', ts: 9, dur: 1, args: { op_name: 'MatMul', provider: 'WebGpuExecutionProvider' } },
  ];
  const c = ortTraceEvents(trace, 1);
  assert.equal(c.source, 'ort profiler (host dispatch only)');
  assert.equal(c.events.length, 1);
});
