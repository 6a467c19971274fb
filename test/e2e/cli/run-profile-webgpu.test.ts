import assert from 'node:assert/strict';
import { test } from 'node:test';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SWIFTSHADER_ICD } from '../../../engines/webgpu/dawn-adapter.js';
import { runCli } from '../../helpers/cli.js';
import { HF_FIXTURES_DIR } from '../../helpers/hf-fixtures.js';

test('run --profile on SwiftShader: the WebGPU engines\' rows say what was timed (host dispatch) and keep the software adapter\'s label', async (t) => {
  const icd = existsSync(SWIFTSHADER_ICD) ? SWIFTSHADER_ICD : undefined;
  if (icd === undefined) return t.skip(`no Vulkan ICD: install Debian's chromium, whose SwiftShader ICD is (${SWIFTSHADER_ICD})`);
  const out = mkdtempSync(join(tmpdir(), 'inferbench-profile-webgpu-'));
  try {
    const r = await runCli(
      ['run', '--model', join(HF_FIXTURES_DIR, 'bert'), '--engines', 'onnx-webgpu,tfjs-webgpu', '--batch-sizes', '1', '--limit', '2', '--rounds', '1', '--min-time', '0', '--min-batches', '1', '--max-time', '20', '--reference', 'none', '--no-png', '--profile', '--out', out],
      { env: { VK_ICD_FILENAMES: icd } },
    );
    const name = readdirSync(out).find((n) => /^\d{4}-/.test(n));
    if (r.code !== 0 || name === undefined) return t.skip(`the WebGPU engines did not run here (exit ${r.code}): ${r.stderr.trim().split('\n').at(-1) ?? ''}`);
    const run = JSON.parse(readFileSync(join(out, name, 'results.json'), 'utf8'));
    const completed = run.cells.filter((c: any) => c.state === 'completed');
    if (completed.length === 0) return t.skip(`no WebGPU cell completed here: ${run.cells.map((c: any) => c.reason).join('; ')}`);
    if (completed.some((c: any) => c.session.adapter?.software !== true)) return t.skip('the adapter here is not SwiftShader (a real GPU): this test pins the software adapter\'s rows');
    const expected: Record<string, RegExp> = {
      'onnx-webgpu': /^ort profiler \(host dispatch only\) on software adapter \(SwiftShader\)$/,
      'tfjs-webgpu': /^host dispatch only on software adapter \(SwiftShader\)$/,
    };
    for (const c of completed) assert.match(c.profile.source, expected[c.engine] ?? /./, c.engine);
    const csv = readFileSync(join(out, name, 'profile.csv'), 'utf8');
    assert.match(csv, /host dispatch only on software adapter \(SwiftShader\)/);
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
});
