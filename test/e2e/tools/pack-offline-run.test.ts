import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { packageRoot } from '../../../src/core/package-info.js';
import { buildPack, DEFAULT_XZ_PRESET, type PackResult } from '../../../tools/pack-offline.js';
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

/** The pack for onnx-cpu and the three Node WebGPU stacks: the size test bounds it, and the run test unpacks and runs it. */
const ENGINES = ['onnx-cpu', 'onnx-webgpu', 'transformers-js-webgpu', 'tfjs-webgpu'];
const LIMIT_MIB = 60;

/** Why neither test can run here, or false. */
const SKIP = process.platform !== 'linux' || process.arch !== 'x64'
  ? 'the pack carries linux-x64 binaries'
  : spawnSync('xz', ['--version']).status !== 0 ? 'xz is not installed (apt install xz-utils)' : false;

/**
 * One pack built for both tests (building one is most of either test's cost), in a temporary folder removed when the
 * file ends. xz -0, the fastest preset (seconds, where the default -9 takes minutes of both cores): the size test's
 * bound holds for every other preset a fortiori, and the run test proves the pack runs, not its size.
 * transformers-js-webgpu brings onnxruntime-node's WebGPU EP, transformers.js's ESM build alone and Dawn's probe child.
 */
let shared: Promise<{ base: string; file: string; built: PackResult }> | undefined;
let sharedBase: string | undefined;
after(() => {
  if (sharedBase !== undefined) rmSync(sharedBase, { recursive: true, force: true });
});
function sharedPack(): Promise<{ base: string; file: string; built: PackResult }> {
  shared ??= (async () => {
    const base = mkdtempSync(join(tmpdir(), 'inferbench-pack-test-'));
    sharedBase = base;
    assert.deepEqual(nodeModulesAbove(base), [], 'the temporary folder has a node_modules above it');
    const file = join(base, 'ib.tar.xz');
    const built = await buildPack({ engines: ENGINES, out: file, withHistory: false, xzPreset: 0 }, packageRoot());
    return { base, file, built };
  })();
  return shared;
}

// The size is deterministic for one set of installed packages and one xz, so this asserts a figure, not a time
// (docs/offline-pack.md gives the -9 figure, 42.5 MiB, against about 53.5 MiB at -0).
test(`the pack for onnx-cpu and the three Node WebGPU stacks is at most ${LIMIT_MIB} MiB`, { skip: SKIP }, async (t) => {
  const { built } = await sharedPack();
  assert.equal(built.compression, 'xz -0', 'the fastest, so largest, preset: a bound on every other preset');
  assert.equal(DEFAULT_XZ_PRESET, 9, 'the pack users build by default is the smallest');
  for (const p of ['onnxruntime-node', 'webgpu', '@huggingface/transformers', '@tensorflow/tfjs-backend-webgpu']) assert.ok(built.packages.includes(p), p);
  const mib = built.bytes / (1024 * 1024);
  t.diagnostic(`pack size ${mib.toFixed(1)} MiB for ${ENGINES.join(',')}`);
  assert.ok(mib <= LIMIT_MIB, `${mib.toFixed(1)} MiB`);
});

test('the offline pack, unpacked in a folder with no node_modules above and no node or npm on PATH, runs a benchmark and writes the run folder', { skip: SKIP }, async (t) => {
  const { base, file, built } = await sharedPack();
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
  // Read through --json: the table cuts each reason to one short line (`inferbench engines --explain ID` gives it whole).
  const listing = (env: NodeJS.ProcessEnv) => {
    const r = spawnSync('./inferbench', ['engines', '--json'], { cwd: dir, env, encoding: 'utf8', timeout: 120_000 });
    assert.equal(r.status, 0, r.stderr);
    const all = JSON.parse(r.stdout) as { id: string; available: boolean; reason?: string }[];
    return (id: string) => all.find((e) => e.id === id) ?? assert.fail(`engines --json lists ${id}`);
  };
  const engines = listing({ PATH: path, HOME: home, INFERBENCH_CACHE: join(home, 'cache') });
  assert.match(engines('onnx-wasm').reason ?? '', new RegExp(`left out of this offline pack \\(it holds ${ENGINES.join(', ')}\\)`));
  assert.match(engines('browser-onnx-wasm').reason ?? '', /not in any offline pack: browser engines need Chromium/);
  // transformers.js is found without its CommonJS build, and Dawn's probe child runs from app/: with SwiftShader the engine is
  // available; without a Vulkan driver its reason is the driver's, never "not installed" or a dead probe.
  const line = JSON.stringify(engines('transformers-js-webgpu'));
  assert.doesNotMatch(line, /not installed|probe process died|left out/, line);
  if (!existsSync(SWIFTSHADER_ICD)) return t.skip(`the WebGPU engine's run needs SwiftShader's ICD (${SWIFTSHADER_ICD}, Debian chromium); its reason here: ${line}`);
  const listed = JSON.stringify(listing({ PATH: path, HOME: home, INFERBENCH_CACHE: join(home, 'cache'), VK_ICD_FILENAMES: SWIFTSHADER_ICD })('transformers-js-webgpu'));
  assert.match(listed, /"available":true.*software adapter \(SwiftShader\)/, listed);
});
