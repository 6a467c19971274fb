import { test } from 'node:test';
import assert from 'node:assert/strict';
import { nativeDevice } from '../../engines/tfjs/native-device.js';

// Fakes of tfjs-node 4.22's NodeJSKernelBackend (no GPU here): the fields it sets from libtensorflow's device list.
const binding = { TF_Version: '2.9.1' };

test('tfjs-node-gpu runs only when libtensorflow took a GPU device; otherwise the cell errors with the reason', () => {
  const gpu = nativeDevice({ isGPUPackage: true, isUsingGpuDevice: true, binding }, true);
  assert.ok(gpu.ok);
  if (gpu.ok) {
    assert.equal(gpu.backend, 'tensorflow GPU');
    assert.deepEqual(gpu.versions, { libtensorflow: '2.9.1' });
  }

  // The GPU package on a machine without CUDA 11.2 / cuDNN 8.1: TensorFlow lists only the CPU.
  const silentCpu = nativeDevice({ isGPUPackage: true, isUsingGpuDevice: false, binding }, true);
  assert.equal(silentCpu.ok, false);
  if (!silentCpu.ok) assert.match(silentCpu.reason, /listed no GPU device .* CUDA 11\.2 and cuDNN 8\.1/);

  // Read through the binding when the backend object lacks the field.
  assert.equal(nativeDevice({ isGPUPackage: true, binding: { ...binding, isUsingGpuDevice: () => false } }, true).ok, false);
  // Unreadable: an error, never an assumption.
  const unknown = nativeDevice({}, true);
  assert.ok(!unknown.ok && /does not report its device/.test(unknown.reason));
  // The CPU package registered instead of the GPU one.
  const wrongPackage = nativeDevice({ isGPUPackage: false, isUsingGpuDevice: false, binding }, true);
  assert.ok(!wrongPackage.ok && /registered by @tensorflow\/tfjs-node \(CPU build\)/.test(wrongPackage.reason));

  // tfjs-node (CPU): CPU is right; a GPU backend is not what was asked for.
  const cpu = nativeDevice({ isGPUPackage: false, isUsingGpuDevice: false, binding }, false);
  assert.ok(cpu.ok && cpu.backend === 'tensorflow CPU');
  assert.equal(nativeDevice({ isGPUPackage: true, isUsingGpuDevice: true, binding }, false).ok, false);
});
