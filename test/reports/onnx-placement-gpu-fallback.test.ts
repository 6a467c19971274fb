import { test } from 'node:test';
import assert from 'node:assert/strict';
import { noGpuNodes, placementBackend, placementFromProfile } from '../../engines/onnx/ort-placement.js';
import { placementLine } from '../../reports/placement-text.js';

/** One kernel event as ORT's profiler writes it. */
function node(name: string, provider: string, op: string, dur: number): object {
  return { cat: 'Node', name: `${name}_kernel_time`, dur, ph: 'X', args: { provider, op_name: op } };
}

// A CUDA session's trace (no GPU here, so a hand-written one in ORT's format): shape ops fall back to the CPU.
const TRACE = [
  { cat: 'Session', name: 'session_initialization', dur: 900 },
  node('/Shape', 'CPUExecutionProvider', 'Shape', 3),
  node('/Gather', 'CPUExecutionProvider', 'Gather', 2),
  node('/Shape_1', 'CPUExecutionProvider', 'Shape', 1),
  { cat: 'Node', name: '/Shape_fence_before', dur: 0, args: {} },
  node('/MatMul', 'CUDAExecutionProvider', 'MatMul', 40),
  node('/Add', 'CUDAExecutionProvider', 'Add', 10),
  node('/Softmax', 'CUDAExecutionProvider', 'Softmax', 30),
  node('/Gemm', 'CUDAExecutionProvider', 'Gemm', 14),
];

test('a GPU session\'s CPU-fallback nodes are counted, timed and named from the profile, and an all-CPU GPU cell is refused', () => {
  const p = placementFromProfile(TRACE, 'CUDAExecutionProvider');
  assert.deepEqual(p.byProvider, { CPUExecutionProvider: { nodes: 3, timeUs: 6 }, CUDAExecutionProvider: { nodes: 4, timeUs: 94 } });
  assert.deepEqual(p.cpuFallbackOps, ['Gather', 'Shape']);
  assert.equal(placementBackend(p), 'CUDAExecutionProvider+CPUExecutionProvider');
  assert.equal(noGpuNodes(p, 'CUDAExecutionProvider'), null);
  assert.equal(
    placementLine(p),
    'CUDAExecutionProvider 57% of 7 nodes, 94% of node time · CPUExecutionProvider 43%, 6% · CPU fallback: Gather, Shape',
  );

  const allCpu = placementFromProfile(TRACE.filter((e) => (e as { args?: { provider?: string } }).args?.provider !== 'CUDAExecutionProvider'), 'TensorrtExecutionProvider');
  assert.match(noGpuNodes(allCpu, 'TensorrtExecutionProvider') ?? '', /TensorrtExecutionProvider was requested but ORT placed no node on it \(3 on CPUExecutionProvider/);
  // On the CPU engine nothing is a fallback.
  assert.deepEqual(placementFromProfile(TRACE, 'CPUExecutionProvider').cpuFallbackOps, []);
});
