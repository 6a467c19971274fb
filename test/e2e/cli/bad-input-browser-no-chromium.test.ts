import { test } from 'node:test';
import assert from 'node:assert/strict';
import { runCli } from '../../helpers/cli.js';

test('without Chromium the browser engines are unavailable, with the install line', async () => {
  const r = await runCli(['engines'], { env: { INFERBENCH_CHROMIUM: '/nonexistent/chromium' } });
  assert.equal(r.code, 0, r.stderr);
  for (const id of ['browser-onnx-wasm', 'browser-onnx-webgpu', 'browser-tfjs-wasm', 'browser-tfjs-webgl', 'browser-tfjs-webgpu', 'browser-transformers-js']) {
    const line = r.stdout.split('\n').find((l) => l.includes(id)) ?? '';
    assert.match(line, /INFERBENCH_CHROMIUM=\/nonexistent\/chromium is not an executable file/, `${id}: ${line}`);
  }
  assert.match(r.stdout, /apt-get install chromium, or set INFERBENCH_CHROMIUM/);
});
