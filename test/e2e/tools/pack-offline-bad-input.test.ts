import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { packageRoot } from '../../../src/core/package-info.js';
import { ENGINE_IDS } from '../../../engines/registry.js';
import { PACK_ENGINES, unpackableReason } from '../../../tools/pack-table.js';
import { omissions, packagesFor } from '../../../tools/pack-build.js';
import { DEFAULT_XZ_PRESET, parsePackArgs } from '../../../tools/pack-offline.js';

const TOOL = join(packageRoot(), 'dist', 'tools', 'pack-offline.js');

function pack(args: string[], env: NodeJS.ProcessEnv = process.env): { status: number | null; stdout: string; stderr: string } {
  return spawnSync(process.execPath, [TOOL, ...args], { encoding: 'utf8', env, timeout: 60_000 });
}

test('pack:offline refuses bad input with rc 2, the problem and the fix, no stack, and writes nothing', (t) => {
  const base = mkdtempSync(join(tmpdir(), 'inferbench-pack-bad-'));
  t.after(() => rmSync(base, { recursive: true, force: true }));
  const out = join(base, 'p.tar.xz');
  const cases: [string[], RegExp, NodeJS.ProcessEnv?][] = [
    [['--engines', 'onnx-cpu,nope', '--out', out], /unknown engine id "nope"[\s\S]*fix: use one or more of: onnx-cpu/],
    [['--engines', 'browser-onnx-wasm', '--out', out], /engine browser-onnx-wasm cannot be packed: browser engines need Chromium/],
    [['--engines', 'onnx-cpu', '--out', '/proc/inferbench-pack.tar.xz'], /cannot write to \/proc[\s\S]*fix: pass an --out in a folder you can write to/],
    [['--engines', 'onnx-cpu', '--out', join(base, 'missing', 'p.tar.xz')], /the folder of --out, .*missing, does not exist/],
    [['--engines', 'onnx-cpu', '--out', join(base, 'p.zip')], /does not end in \.tar\.xz/],
    [['--engines', 'onnx-cpu'], /--out is required/],
    [['--out', out], /--engines is required/],
    [['--engines', 'onnx-cpu', '--out', out, '--level', '3'], /unknown option --level/],
    [['--engines', 'onnx-cpu', '--out', out, '--xz-preset', '10'], /--xz-preset 10 is not an xz preset \(an integer from 0 to 9\)[\s\S]*fix: pass --xz-preset 0/],
    [['--engines', 'onnx-cpu', '--out', out, '--xz-preset', 'fast'], /--xz-preset fast is not an xz preset/],
    [['--engines', 'onnx-cpu', '--out', out, '--xz-preset', '-1'], /--xz-preset -1 is not an xz preset/],
    [['--engines', 'onnx-cpu', '--out', out, '--xz-preset'], /--xz-preset needs a value/],
    // No xz on PATH: said before anything is assembled.
    [['--engines', 'onnx-cpu', '--out', out], /xz is not installed[\s\S]*fix: install xz-utils/, { ...process.env, PATH: join(base, 'no-such-bin') }],
  ];
  for (const [args, message, env] of cases) {
    const r = pack(args, env);
    assert.equal(r.status, 2, `${args.join(' ')}: ${r.stderr}`);
    assert.match(r.stderr, message, args.join(' '));
    assert.match(r.stderr, /^error: /);
    assert.doesNotMatch(r.stderr, /\n\s+at /, 'no stack trace');
  }
  assert.deepEqual(readdirSync(base), [], 'nothing written');
});

test('--xz-preset takes 0 to 9 and defaults to 9, the smallest pack', (t) => {
  const base = mkdtempSync(join(tmpdir(), 'inferbench-pack-preset-'));
  t.after(() => rmSync(base, { recursive: true, force: true }));
  const out = join(base, 'p.tar.xz');
  assert.equal(DEFAULT_XZ_PRESET, 9);
  assert.equal(parsePackArgs(['--engines', 'onnx-cpu', '--out', out]).xzPreset, 9);
  assert.equal(parsePackArgs(['--engines', 'onnx-cpu', '--out', out, '--xz-preset', '0']).xzPreset, 0);
  assert.equal(parsePackArgs(['--xz-preset', '3', '--engines', 'onnx-cpu', '--out', out]).xzPreset, 3);
  assert.deepEqual(readdirSync(base), [], 'parsing writes nothing');
});

test('every registered engine has a row in the pack table or a reason why no pack can hold it', () => {
  for (const id of ENGINE_IDS) assert.ok(id in PACK_ENGINES || unpackableReason(id) !== null, `${id} has no row in tools/pack-table.ts`);
  for (const id of ['onnx-webgpu', 'transformers-js-webgpu', 'tfjs-webgpu', 'tfjs-webgpu-graph-model']) assert.ok(id in PACK_ENGINES, id);
});

test('a pack carries only what its engines need: onnx-cpu has no Dawn and no transformers.js, WebGPU engines carry dawn.node', () => {
  const cpu = packagesFor(['onnx-cpu'], false).map((p) => p.path);
  assert.ok(cpu.includes('onnxruntime-node'));
  for (const p of ['webgpu', '@huggingface/transformers', 'onnxruntime-web', '@duckdb/node-api']) assert.ok(!cpu.includes(p), p);
  const gpu = packagesFor(['onnx-webgpu', 'transformers-js-webgpu', 'tfjs-webgpu'], false).map((p) => p.path);
  for (const p of ['webgpu', '@tensorflow/tfjs-backend-webgpu', '@huggingface/transformers', 'onnxruntime-node']) assert.ok(gpu.includes(p), p);
  // transformers.js must not drag onnxruntime-web's wasm builds or a second onnxruntime-node.
  assert.ok(!gpu.some((p) => p.includes('onnxruntime-web')), gpu.join(', '));
  assert.equal(gpu.filter((p) => p.endsWith('onnxruntime-node')).length, 1);
  assert.ok(omissions(['onnx-cpu'], false).some((o) => o.packages.includes('@duckdb/node-api')));
  assert.ok(!omissions(['onnx-cpu'], true).some((o) => o.packages.includes('@duckdb/node-api')));
  assert.ok(packagesFor(['onnx-cpu'], true).some((p) => p.path === '@duckdb/node-api'));
});
