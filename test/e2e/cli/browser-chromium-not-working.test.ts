import { test } from 'node:test';
import assert from 'node:assert/strict';
import { chmodSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { isCleanUserError, runCli } from '../../helpers/cli.js';
import { testOutputDir } from '../../helpers/test-cache.js';

test('INFERBENCH_CHROMIUM that is not a working Chromium (exits 1, prints no version, hangs) is probed with --version and named with the cause', async () => {
  const dir = testOutputDir('browser-chromium-not-working');
  const sleeper = join(dir, 'sleeping-chromium');
  writeFileSync(sleeper, '#!/bin/sh\nsleep 600\n');
  chmodSync(sleeper, 0o755);
  const cases: [string, RegExp][] = [
    ['/bin/false', /INFERBENCH_CHROMIUM=\/bin\/false is not a working Chromium: `\/bin\/false --version` exited with code 1/],
    ['/bin/ls', /INFERBENCH_CHROMIUM=\/bin\/ls is not a working Chromium: `\/bin\/ls --version` printed ".*", not a Chromium version/],
    [sleeper, /INFERBENCH_CHROMIUM=.*sleeping-chromium is not a working Chromium: `.*sleeping-chromium --version` did not answer within 15 s/],
  ];
  for (const [binary, reason] of cases) {
    // --json: every reason whole (the table cuts each to about 60 characters).
    const r = await runCli(['engines', '--json'], { env: { INFERBENCH_CHROMIUM: binary }, timeoutMs: 180_000 });
    assert.equal(r.code, 0, r.stderr);
    const listed = JSON.parse(r.stdout) as { id: string; reason?: string }[];
    for (const id of ['browser-onnx-wasm', 'browser-tfjs-webgl', 'browser-transformers-js']) {
      const line = listed.find((e) => e.id === id)?.reason ?? '';
      assert.match(line, reason, `${binary}: ${id}: ${line}`);
    }
  }
  // A run names the same reason before it starts, instead of an errored cell saying "Target page, context or browser has been closed".
  const r = await runCli(['run', '--engines', 'browser-onnx-wasm', '--batch-sizes', '1', '--limit', '8', '--reference', 'none', '--no-png', '--out', join(dir, 'out')], { env: { INFERBENCH_CHROMIUM: '/bin/false' }, timeoutMs: 120_000 });
  assert.ok(isCleanUserError(r), r.stderr);
  assert.match(r.stderr, /browser-onnx-wasm: unavailable: INFERBENCH_CHROMIUM=\/bin\/false is not a working Chromium/);
  assert.doesNotMatch(r.stderr + r.stdout, /has been closed/);
});
