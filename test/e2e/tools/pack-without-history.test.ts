/**
 * A pack built without the history says so: `list`, `show`, `rerun`, `rm`
 * and `compare` by id name the missing part and how to build a pack with
 * it, never "no benchmarks yet". Its launcher, reached through a symbolic
 * link, runs from the pack's own folder.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { HISTORY } from '../../../tools/pack-table.js';
import { LAUNCHER } from '../../../tools/pack-build.js';
import { runCli } from '../../helpers/cli.js';

test('in a pack without the history, list, show, rerun, rm and compare by id say the pack has no history and how to build one', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'ib-pack-nohist-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const manifest = join(dir, 'pack.json');
  writeFileSync(manifest, JSON.stringify({ engines: ['onnx-cpu'], leftOut: [{ part: HISTORY.part, packages: ['@duckdb/node-api'], effect: HISTORY.effect }] }));
  for (const args of [['list'], ['show', '1'], ['rerun', '1'], ['rm', '1'], ['compare', '1', '2']]) {
    const r = await runCli([...args, '--out', join(dir, 'runs')], { env: { INFERBENCH_PACK: manifest } });
    assert.equal(r.code, 2, `${args.join(' ')}: ${r.stdout}${r.stderr}`);
    assert.match(r.stderr, new RegExp(`this offline pack has no history: the DuckDB history \\(@duckdb/node-api\\) is left out of it, and inferbench ${args[0]}`));
    assert.match(r.stderr, /fix: build a pack with the history: npm run pack:offline -- --engines onnx-cpu --with-history/);
    assert.doesNotMatch(r.stdout + r.stderr, /No benchmarks|no benchmark history/);
  }
});

test('the pack launcher reached through a symbolic link runs from the pack folder', (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'ib-pack-link-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const pack = join(dir, 'pack');
  mkdirSync(join(pack, 'bin'), { recursive: true });
  mkdirSync(join(pack, 'app'));
  symlinkSync(process.execPath, join(pack, 'bin', 'node'));
  writeFileSync(join(pack, 'app', 'main.js'), 'console.log(process.env.INFERBENCH_PACK);\n');
  writeFileSync(join(pack, 'inferbench'), LAUNCHER);
  chmodSync(join(pack, 'inferbench'), 0o755);
  mkdirSync(join(dir, 'bin'));
  // A relative link in one folder, to an absolute link in another.
  symlinkSync(join(pack, 'inferbench'), join(dir, 'bin', 'abs'));
  symlinkSync('abs', join(dir, 'bin', 'inferbench'));
  const r = spawnSync(join(dir, 'bin', 'inferbench'), [], { encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  assert.equal(r.stdout.trim(), join(pack, 'pack.json'));
});
