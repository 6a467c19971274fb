import { test } from 'node:test';
import assert from 'node:assert/strict';
import { engineLines } from '../../src/cli/engines-command.js';
import type { EngineStatus } from '../../src/core/engine-registry.js';

/** Two engines as the registry reports them: one available, one with a reason and a fix as long as the real CUDA one. */
const STATUSES: EngineStatus[] = [
  { id: 'onnx-cpu', engine: null, availability: { available: true, versions: { 'onnxruntime-node': '1.30.0' } } },
  {
    id: 'tfjs-wasm-graph-model',
    engine: null,
    availability: {
      available: false,
      reason: `libexample_provider.so is not next to the binding (${'/very/long/path/'.repeat(6)}bin): its install downloads it from a host this machine cannot reach`,
      enable: 'run `EXAMPLE_INSTALL=yes node node_modules/example/script/install.js` on a machine with internet, or copy the .so files next to the binding',
    },
  },
];

test('`inferbench engines` wraps each reason under its engine to fit the width, keeping every word; --wide keeps one line per engine', () => {
  for (const width of [60, 80, 100]) {
    const lines = engineLines(STATUSES, { width, wide: false });
    const over = lines.filter((l) => [...l].length > width && !/\S{30,}/u.test(l));
    assert.deepEqual(over, [], `lines over ${width} (a path longer than the room left stays whole)`);
    const words = (text: string) => text.split(/\s+/u).filter((w) => w !== '');
    const entry = lines.slice(1).join(' ');
    assert.deepEqual(words(entry).slice(1), words(`unavailable: ${STATUSES[1]?.availability.available === false ? `${STATUSES[1].availability.reason} (${STATUSES[1].availability.enable})` : ''}`), 'every word, in order');
    assert.ok(lines.slice(2).every((l) => l.startsWith(' '.repeat('tfjs-wasm-graph-model'.length + 2))), 'continuation lines sit under the text, not under the name');
  }
  const wide = engineLines(STATUSES, { width: 80, wide: true });
  assert.equal(wide.length, 2);
  assert.ok(wide[1]?.startsWith('tfjs-wasm-graph-model  unavailable: libexample_provider.so'));
});
