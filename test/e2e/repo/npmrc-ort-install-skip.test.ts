import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { packageRoot } from '../../../src/core/package-info.js';

const NPM_MISSING = spawnSync('npm', ['--version']).status === 0 ? false : 'npm is not on PATH';

test('npm reads the project .npmrc without a warning, and onnxruntime-node\'s install script still decides to skip its download', { skip: NPM_MISSING }, () => {
  const root = packageRoot();
  const env: Record<string, string | undefined> = { ...process.env, NODE_OPTIONS: '' };
  delete env['ONNXRUNTIME_NODE_INSTALL'];
  const config = spawnSync('npm', ['config', 'get', 'node-options'], { cwd: root, env, encoding: 'utf8' });
  assert.equal(config.status, 0, config.stderr);
  assert.doesNotMatch(config.stderr, /Unknown (project )?config/, 'no config key npm does not know');

  // onnxruntime-node's postinstall as npm runs it: NODE_OPTIONS from node-options, npm_package_name set, its own flag parser.
  const installUtils = createRequire(import.meta.url).resolve('onnxruntime-node/script/install-utils.js');
  const decide = (name: string, extra: Record<string, string> = {}) =>
    execFileSync(process.execPath, ['-e', `console.log(JSON.stringify([require(${JSON.stringify(installUtils)}).parseInstallFlag() ?? null, process.env.ONNXRUNTIME_NODE_INSTALL ?? null]))`], {
      env: { ...env, NODE_OPTIONS: config.stdout.trim(), npm_package_name: name, ...extra },
      encoding: 'utf8',
    }).trim();
  assert.equal(decide('onnxruntime-node'), '[false,"skip"]', 'false: the script exits before downloading');
  assert.equal(decide('onnxruntime-node', { ONNXRUNTIME_NODE_INSTALL: 'true' }), '[true,"true"]', 'a value the user sets still wins');
  assert.equal(decide('inferbench'), '[null,null]', "other packages' scripts are left alone");
});
