import { test } from 'node:test';
import assert from 'node:assert/strict';
import { runCli } from '../../helpers/cli.js';

test('without Chromium the browser engines are unavailable, with the install line', async () => {
  // --json keeps every reason and fix whole (the table cuts reasons to about 60 characters).
  const r = await runCli(['engines', '--json'], { env: { INFERBENCH_CHROMIUM: '/nonexistent/chromium' } });
  assert.equal(r.code, 0, r.stderr);
  const listed = JSON.parse(r.stdout) as { id: string; reason?: string; enable?: string }[];
  for (const id of ['browser-onnx-wasm', 'browser-onnx-webgpu', 'browser-tfjs-wasm', 'browser-tfjs-webgl', 'browser-tfjs-webgpu', 'browser-transformers-js']) {
    const entry = listed.find((e) => e.id === id);
    assert.match(entry?.reason ?? '', /INFERBENCH_CHROMIUM=\/nonexistent\/chromium is not an executable file/, `${id}: ${JSON.stringify(entry)}`);
    assert.match(entry?.enable ?? '', /apt-get install chromium, or set INFERBENCH_CHROMIUM/);
  }
  const table = await runCli(['engines'], { env: { INFERBENCH_CHROMIUM: '/nonexistent/chromium', COLUMNS: '100' } });
  assert.equal(table.stdout.split('\n').filter((l) => /^\[\d+\] browser-onnx-wasm, browser-onnx-webgpu, /u.test(l)).length, 1, `the browser engines' fix, once, under the table:\n${table.stdout}`);
});
