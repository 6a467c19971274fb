/**
 * The tfjs-node probe memo (native-probe-memo.ts) is an availability
 * answer only: a library remembered as loading that no longer loads must
 * fail the cell at `open()` with the import's own error, never run on a
 * remembered answer. A child Node gets LD_LIBRARY_PATH pointing at empty
 * libtensorflow files (searched before the binding's RUNPATH, so the
 * binding's load fails), and a memo of an ok probe for exactly that
 * environment; its probe then says available without a probe child, and
 * its open must still fail, naming the file.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { test } from 'node:test';
import { promisify } from 'node:util';
import { testOutputDir } from '../../helpers/test-cache.js';

const PKG = '@tensorflow/tfjs-node';
let skip: string | false = false;
try {
  createRequire(import.meta.url).resolve(`${PKG}/package.json`);
} catch {
  skip = `${PKG} is not installed (npm run setup:tfjs-node builds it offline)`;
}

/** Runs in the child: seeds the memo for its own environment, then probes and opens tfjs-node. */
function childScript(): string {
  const url = (rel: string) => JSON.stringify(new URL(rel, import.meta.url).href);
  return `
import { dirname } from 'node:path';
import { createRequire } from 'node:module';
const { rememberedProbe } = await import(${url('../../../engines/tfjs/native-probe-memo.js')});
const { createTfjsEngine } = await import(${url('../../../engines/tfjs/tfjs-engine.js')});
const dir = dirname(createRequire(${url('../../../engines/tfjs/native-library.js')}).resolve('${PKG}/package.json'));
await rememberedProbe('${PKG}', dir, async () => ({ ok: true, tensorflow: '2.21.0' }));
const engine = createTfjsEngine('node');
const availability = await engine.probe();
let open;
try {
  await engine.open('/nonexistent/model.onnx', { threads: null, precision: 'fp32' });
  open = 'opened';
} catch (err) {
  open = { name: err.constructor.name, message: String(err.message) };
}
console.log(JSON.stringify({ availability, open }));
`;
}

test('a tfjs-node remembered as loading that no longer loads fails its cell at open with the import error', { skip }, async () => {
  const root = testOutputDir('probe-memo-open-fails');
  const bogus = join(root, 'lib');
  mkdirSync(bogus);
  for (const name of ['libtensorflow_cc.so.2', 'libtensorflow_framework.so.2', 'libtensorflow.so.2']) writeFileSync(join(bogus, name), '');
  const env = { ...process.env, LD_LIBRARY_PATH: bogus, INFERBENCH_CACHE: join(root, 'cache'), TF_CPP_MIN_LOG_LEVEL: '2' };
  const { stdout } = await promisify(execFile)(process.execPath, ['--input-type=module', '-e', childScript()], { env, timeout: 120_000 });
  const out = JSON.parse(stdout.trim().split('\n').pop() ?? '') as { availability: { available: boolean }; open: string | { name: string; message: string } };
  // A probe child would fail on the empty library too: available here is the memo's answer.
  assert.equal(out.availability.available, true, 'the probe took the remembered ok answer');
  assert.notEqual(out.open, 'opened');
  assert.ok(typeof out.open === 'object');
  assert.equal(out.open.name, 'CellSkip', 'the cell is skipped with its reason, the sweep goes on');
  assert.match(out.open.message, /tfjs-node is not available: @tensorflow\/tfjs-node failed to load: .*libtensorflow[^ ]*\.so\.2: file too short/);
});
