import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { packageRoot } from '../../../src/core/package-info.js';
import { buildPack } from '../../../tools/pack-offline.js';
import { SWIFTSHADER_ICD } from '../../../engines/webgpu/dawn-adapter.js';

/** Folders from `dir` up to `/` that hold a node_modules: the pack must resolve nothing from them. */
function nodeModulesAbove(dir: string): string[] {
  const out: string[] = [];
  for (let d = dir; ; d = dirname(d)) {
    if (existsSync(join(d, 'node_modules'))) out.push(d);
    if (dirname(d) === d) return out;
  }
}

/** A PATH of one folder with only the tools the launcher needs (sh, dirname): no node, no npm. */
function barePath(base: string): string {
  const bin = join(base, 'bin');
  mkdirSync(bin);
  for (const tool of ['sh', 'dirname']) {
    const found = ['/usr/bin', '/bin'].map((d) => join(d, tool)).find((p) => existsSync(p));
    if (found) symlinkSync(found, join(bin, tool));
  }
  return bin;
}

// xz -0: this test proves the pack runs, not its size (pack-offline-size.test.ts builds with the default -9); -0 takes a tenth of -9's time.
test('the offline pack, unpacked in a folder with no node_modules above and no node or npm on PATH, runs a benchmark and writes the run folder', async (t) => {
  if (process.platform !== 'linux' || process.arch !== 'x64') return t.skip('the pack carries linux-x64 binaries');
  if (spawnSync('xz', ['--version']).status !== 0) return t.skip('xz is not installed (apt install xz-utils)');
  const base = mkdtempSync(join(tmpdir(), 'inferbench-pack-test-'));
  t.after(() => rmSync(base, { recursive: true, force: true }));
  assert.deepEqual(nodeModulesAbove(base), [], 'the temporary folder has a node_modules above it');

  const file = join(base, 'ib.tar.xz');
  // transformers-js-webgpu brings onnxruntime-node's WebGPU EP, transformers.js's ESM build alone and Dawn's probe child.
  const built = await buildPack({ engines: ['onnx-cpu', 'transformers-js-webgpu'], out: file, withHistory: false, xzPreset: 0 }, packageRoot());
  assert.equal(built.file, file);
  assert.equal(built.compression, 'xz -0');
  assert.ok(built.bytes > 0);
  assert.deepEqual(readdirSync(base).filter((n) => n.includes('partial')), [], 'the temporary file was renamed into place');
  assert.ok(built.leftOut.some((l) => l.includes('DuckDB')), `left out: ${built.leftOut.join('; ')}`);

  const unpacked = join(base, 'unpacked');
  mkdirSync(unpacked);
  const tar = spawnSync('tar', ['-xJf', file, '-C', unpacked], { encoding: 'utf8' });
  assert.equal(tar.status, 0, tar.stderr);
  assert.deepEqual(readdirSync(unpacked), ['ib'], 'one folder at the top');
  const dir = join(unpacked, 'ib');
  assert.equal((JSON.parse(readFileSync(join(dir, 'pack.json'), 'utf8')) as { compression?: string }).compression, 'xz -0', 'pack.json records the preset');

  const home = join(base, 'home');
  mkdirSync(home);
  const path = barePath(base);
  for (const tool of ['node', 'npm', 'npx']) assert.ok(!existsSync(join(path, tool)), `${tool} on PATH`);
  const out = join(base, 'out');
  const r = spawnSync(
    './inferbench',
    ['run', '--engines', 'onnx-cpu', '--batch-sizes', '1', '--limit', '8', '--rounds', '1', '--min-time', '0', '--warmup', '1', '--out', out],
    { cwd: dir, env: { PATH: path, HOME: home, INFERBENCH_CACHE: join(home, 'cache') }, encoding: 'utf8', timeout: 300_000 },
  );
  assert.equal(r.status, 0, `${r.stdout}\n${r.stderr}`);
  assert.doesNotMatch(r.stderr, /\n\s+at /, 'no stack trace');
  // The left-out history says so in one warning (wrapped to the 80 columns stderr gets in a pipe), and the run folder is written regardless.
  assert.match(r.stderr.replace(/\n\s+/g, ' '), /warning: benchmark history not updated: the DuckDB history \(@duckdb\/node-api\) is left out of this offline pack/);
  const runs = readdirSync(out).filter((n) => !n.startsWith('.') && !n.endsWith('.duckdb'));
  assert.equal(runs.length, 1, `run folders: ${runs.join(', ')}`);
  const run = join(out, runs[0] as string);
  const files = readdirSync(run);
  for (const f of ['results.json', 'results.csv']) assert.ok(files.includes(f), `${f} in ${files.join(', ')}`);
  assert.ok(files.some((f) => f.endsWith('.png')), `a PNG in ${files.join(', ')}`);
  const record = JSON.parse(readFileSync(join(run, 'results.json'), 'utf8')) as { cells: { engine: string; state: string }[] };
  assert.deepEqual(
    record.cells.map((c) => [c.engine, c.state]),
    [['onnx-cpu', 'completed']],
  );

  // An engine outside the pack reads as left out of it, not as "npm install …".
  const engines = spawnSync('./inferbench', ['engines', '--wide'], { cwd: dir, env: { PATH: path, HOME: home, INFERBENCH_CACHE: join(home, 'cache') }, encoding: 'utf8', timeout: 120_000 });
  assert.equal(engines.status, 0, engines.stderr);
  assert.match(engines.stdout, /onnx-wasm\s+unavailable: left out of this offline pack \(it holds onnx-cpu, transformers-js-webgpu\)/);
  assert.match(engines.stdout, /browser-onnx-wasm\s+unavailable: not in any offline pack: browser engines need Chromium/);
  // transformers.js is found without its CommonJS build, and Dawn's probe child runs from app/: with SwiftShader the engine is
  // available; without a Vulkan driver its reason is the driver's, never "not installed" or a dead probe.
  const line = /^transformers-js-webgpu\s+(.*)$/m.exec(engines.stdout)?.[1] ?? '';
  assert.doesNotMatch(line, /not installed|probe process died|left out/, line);
  if (!existsSync(SWIFTSHADER_ICD)) return t.skip(`the WebGPU engine's run needs SwiftShader's ICD (${SWIFTSHADER_ICD}, Debian chromium); its reason here: ${line}`);
  const gpuEnv = { PATH: path, HOME: home, INFERBENCH_CACHE: join(home, 'cache'), VK_ICD_FILENAMES: SWIFTSHADER_ICD };
  const listed = spawnSync('./inferbench', ['engines', '--wide'], { cwd: dir, env: gpuEnv, encoding: 'utf8', timeout: 120_000 });
  assert.match(listed.stdout, /^transformers-js-webgpu\s+available .*software adapter \(SwiftShader\)/m, listed.stdout);
});
