import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { packageRoot } from '../../../src/core/package-info.js';

test('npm pack ships what a user runs (compiled code, the embedded data, the dashboard page) and no tests, tools or scratch files', () => {
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  const out = execFileSync(npm, ['pack', '--dry-run', '--json', '--ignore-scripts'], { cwd: packageRoot(), encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
  const files = (JSON.parse(out) as { files: { path: string }[] }[])[0]?.files.map((f) => f.path) ?? [];
  for (const needed of [
    'package.json',
    'dist/src/cli/main.js',
    'dist/src/index.js',
    'dist/src/index.d.ts',
    'dist/src/launchers/scenario-child.js',
    'dist/src/launchers/scenario-child-job.js',
    'dist/engines/registry.js',
    'dist/engines/onnx/onnx-node-engine.js',
    'datasets/default/sentiment.jsonl',
    'src/dashboard/web/dashboard.html',
  ]) {
    assert.ok(files.includes(needed), `${needed} is in the package`);
  }
  const stray = files.filter((f) => /^(dist\/)?(test|tools)\//.test(f) || /\.tmp\.m?js$/.test(f) || f.endsWith('.map') || /^src\/(?!dashboard\/web\/)/.test(f));
  assert.deepEqual(stray, []);
  // A bound on the package's growth, not a target: 890 with --profile, --engine-options, tune and the three browser drivers.
  assert.ok(files.length < 960, `${files.length} files`);
});
