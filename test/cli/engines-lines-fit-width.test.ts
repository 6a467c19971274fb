/**
 * `inferbench engines` (issue 47, point 2): one line per engine with a
 * reason of at most about 60 characters, one "how to enable" block per
 * cause however many engines share it, every line within the width, and
 * `--explain` keeping every word of the reason and the fix.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { engineLines, explainLines, shortReason } from '../../src/cli/engines-command.js';
import type { EngineStatus } from '../../src/core/engine-registry.js';

const CUDA_FIX = 'run `EXAMPLE_INSTALL=cuda12 node node_modules/example/script/install.js` on a machine with internet (it fetches the CUDA providers), or copy the .so files next to the binding; CUDA 12 and cuDNN 9 must be installed too';
const cuda = (id: string): EngineStatus => ({
  id,
  engine: null,
  availability: { available: false, reason: `libexample_provider_cuda.so is not next to the binding (${'/very/long/path/'.repeat(6)}bin): its install downloads it from a host this machine cannot reach`, enable: CUDA_FIX },
});
/** One available engine and three sharing the CUDA fix, as onnx-cuda, onnx-tensorrt and transformers-js-cuda do. */
const STATUSES: EngineStatus[] = [
  { id: 'onnx-cpu', engine: null, availability: { available: true, versions: { 'onnxruntime-node': '1.30.0' } } },
  cuda('onnx-cuda'),
  cuda('onnx-tensorrt'),
  cuda('transformers-js-cuda'),
  { id: 'tfjs-node', engine: null, availability: { available: false, reason: '@tensorflow/tfjs-node is not installed', enable: 'npm install @tensorflow/tfjs-node' } },
];

test('one line per engine with a short reason, one block per cause: the CUDA fix once for its three engines', () => {
  for (const width of [60, 80, 100]) {
    const lines = engineLines(STATUSES, { width, wide: false });
    assert.deepEqual(lines.filter((l) => [...l].length > width), [], `lines over ${width}`);
    for (const s of STATUSES) assert.equal(lines.filter((l) => l.startsWith(`${s.id} `)).length, 1, `${s.id}: one line`);
    assert.equal(lines.filter((l) => l.includes('EXAMPLE_INSTALL=cuda12')).length, 1, 'the CUDA fix appears once');
    assert.ok(lines.some((l) => l.startsWith('[1] onnx-cuda, onnx-tensorrt, transformers-js-cuda: ')), lines.join('\n'));
    assert.ok(lines.some((l) => l.startsWith('[2] tfjs-node: npm install @tensorflow/tfjs-node')));
  }
  const row = engineLines(STATUSES, { width: 100, wide: false }).find((l) => l.startsWith('onnx-cuda ')) ?? '';
  assert.match(row, /no {3}\[1\] libexample_provider_cuda\.so is not next to the binding$/u);
  assert.ok([...shortReason(`unavailable: ${'word '.repeat(40)}`)].length <= 60, 'a reason is cut to about 60 characters');
});

test('--explain gives the reason and the fix in full; --wide keeps each line whole', () => {
  const words = (text: string) => text.split(/\s+/u).filter((w) => w !== '');
  const explained = explainLines(STATUSES[1] as EngineStatus, { width: 80, wide: false });
  const availability = STATUSES[1]?.availability;
  assert.ok(availability !== undefined && !availability.available);
  assert.deepEqual(words(explained.slice(1).join(' ')), words(`unavailable: ${availability.reason} to enable: ${availability.enable}`), 'every word, in order');
  const wide = engineLines(STATUSES, { width: 80, wide: true });
  assert.ok(wide.some((l) => l.endsWith(CUDA_FIX)), 'the whole fix on one line');
});
