/**
 * A full disk is the user's error: on a small tmpfs in a private mount
 * namespace (`unshare -m`, root here and in CI), `run --save-outputs` ends
 * with `cannot write <path>: no space left on device` and exit 2, no stack
 * trace, no file under its final name that is not whole, no empty run
 * folder, and the cells measured before kept in results.json (`interrupted`,
 * stopped by `disk full`), with results.csv holding the same cells.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { packageRoot } from '../../../src/core/package-info.js';
import { CLI } from '../../helpers/cli.js';
import { parseCsv } from '../../helpers/parse-csv.js';
import { testOutputDir } from '../../helpers/test-cache.js';

const ST = join(packageRoot(), 'test', 'data', 'st', 'mini-embed');

function canMount(): string | null {
  if (process.getuid?.() !== 0) return 'mounting a tmpfs needs root';
  const probe = spawnSync('unshare', ['-m', 'sh', '-c', 'mount -t tmpfs -o size=64k tmpfs /mnt && umount /mnt'], { encoding: 'utf8' });
  return probe.status === 0 ? null : `unshare -m with a tmpfs mount is not permitted here: ${(probe.stderr || probe.error?.message || '').trim()}`;
}

const skip = canMount();

/** Runs `args` (after the CLI) with `mount` a tmpfs of `size` mounted first, in a mount namespace of its own; answers what it printed and left there. */
function onTmpfs(mount: string, size: string, args: readonly string[]): { status: number | null; stderr: string; left: Record<string, string[]>; files: Record<string, string> } {
  mkdirSync(mount, { recursive: true });
  const quoted = [process.execPath, CLI, ...args].map((a) => `'${a.replace(/'/g, `'\\''`)}'`).join(' ');
  // The listing and the files are read inside the namespace, before the tmpfs goes with it.
  const script = `mount -t tmpfs -o size=${size} tmpfs '${mount}' || exit 90; ${quoted} >/dev/null 2>"${mount}.err"; rc=$?; cd '${mount}' && find . -type f -not -name 'history.duckdb*' | while read f; do printf '\\n==FILE %s\\n' "$f"; case "$f" in *.json|*.csv) cat "$f";; esac; done; exit $rc`;
  const r = spawnSync('unshare', ['-m', 'sh', '-c', script], { encoding: 'utf8', timeout: 120_000, maxBuffer: 64 * 1024 * 1024 });
  const files: Record<string, string> = {};
  for (const part of r.stdout.split('\n==FILE ').slice(1)) {
    const nl = part.indexOf('\n');
    files[part.slice(0, nl)] = part.slice(nl + 1);
  }
  const left: Record<string, string[]> = {};
  for (const name of Object.keys(files)) (left[name.split('/')[2] ?? ''] ??= []).push(name.split('/').slice(3).join('/'));
  return { status: r.status, stderr: readFileSync(`${mount}.err`, 'utf8'), left, files };
}

test('run --save-outputs on a full disk: one line and exit 2, no stack, no partial file, measured cells kept as interrupted (disk full) in results.json and results.csv', { skip: skip ?? false }, () => {
  const base = testOutputDir('disk-full-tmpfs');
  let kept = 0;
  for (const size of ['1m', '2m']) {
    const mount = join(base, `m${size}`);
    const r = onTmpfs(mount, size, ['run', '--model', ST, '--dataset', join(ST, 'texts.jsonl'), '--engines', 'onnx-cpu,transformers-js', '--batch-sizes', '1,4', '--limit', '8', '--rounds', '1', '--min-time', '0', '--min-batches', '1', '--no-png', '--no-isolate', '--save-outputs', '--out', join(mount, 'runs')]);
    assert.equal(r.status, 2, `${size}: ${r.stderr}`);
    assert.match(r.stderr, /inferbench: error: cannot write \S+: no space left on device\n/);
    assert.doesNotMatch(r.stderr, /internal error|\n\s+at /);
    for (const [name, body] of Object.entries(r.files)) {
      assert.doesNotMatch(name, /\.tmp|partial/, `${size}: a temporary left: ${name}`);
      if (name.endsWith('.json')) assert.doesNotThrow(() => JSON.parse(body), `${size}: ${name} is whole`);
    }
    const runs = Object.keys(r.files).filter((f) => f.endsWith('/results.json'));
    const folders = new Set(Object.keys(r.files).map((f) => f.split('/')[2]).filter((d) => d !== undefined && d !== 'history.duckdb'));
    assert.equal(folders.size, runs.length, `${size}: a run folder without results.json: ${JSON.stringify(r.left)}`);
    for (const json of runs) {
      const record = JSON.parse(r.files[json] ?? '') as { state: string; stoppedBy?: string; cells: { state: string }[] };
      if (record.state === 'running') continue;
      assert.deepEqual([record.state, record.stoppedBy], ['interrupted', 'disk full']);
      const [cols = [], ...rows] = parseCsv(r.files[json.replace(/results\.json$/, 'results.csv')] ?? '');
      assert.deepEqual(rows.filter((l) => l.length > 1).map((l) => l[cols.indexOf('state')]), record.cells.map((c) => c.state));
      kept += record.cells.length;
    }
  }
  assert.ok(kept > 0, 'one of the disks held the cells measured before it filled');
});
