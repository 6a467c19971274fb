import { test } from 'node:test';
import assert from 'node:assert/strict';
import { runCli, type CliResult } from '../../helpers/cli.js';
import { hubRepoFolder } from '../../helpers/hub-model-repo.js';
import { startMockModelHub } from '../../helpers/mock-model-hub.js';
import { testOutputDir } from '../../helpers/test-cache.js';

let embeddedRun: Promise<CliResult> | undefined;
/**
 * One `inspect --engines onnx-cpu` of the embedded default for both tests:
 * these tests are about model names and --engines, not the engine list, and
 * without --engines every inspect probes every engine (Chromium, a
 * libtensorflow child) first.
 */
function inspectEmbedded(): Promise<CliResult> {
  embeddedRun ??= runCli(['inspect', '--engines', 'onnx-cpu']);
  return embeddedRun;
}

test('inspect --engines judges only the engines it names', async () => {
  const embedded = await inspectEmbedded();
  assert.equal(embedded.code, 0, embedded.stderr);
  assert.match(embedded.stdout, /can run here\n {2}onnx-cpu {2}yes\n$/, 'onnx-cpu, and no other engine');
});

test('inspect takes the model names run takes: the embedded default without --model, --config presets, Hub ids', async (t) => {
  const embedded = await inspectEmbedded();
  assert.equal(embedded.code, 0, embedded.stderr);
  assert.match(embedded.stdout, /^model +\S*tiny-bert\S*\/onnx\/model\.onnx/m, 'the embedded default, generated in the cache as run does');
  assert.match(embedded.stdout, /can run here\n +onnx-cpu +yes/);

  const repo = await hubRepoFolder('inspect-hub');
  const hub = await startMockModelHub([{ id: 'acme/tiny-bert', dir: repo }]);
  t.after(() => hub.close());
  const env = { HF_ENDPOINT: hub.url, HF_HUB_CACHE: testOutputDir('inspect-hub-cache'), HF_TOKEN: '', HF_HUB_OFFLINE: '' };
  // One inspect for the Hub id and both --config forms (a preset, an architecture spec), judging onnx-cpu alone (see inspectEmbedded).
  const spec = 'hidden=32,layers=1,heads=2,intermediate=64';
  const all = await runCli(['inspect', '--model', 'acme/tiny-bert', '--config', 'tiny', '--config', spec, '--engines', 'onnx-cpu'], { env });
  assert.equal(all.code, 0, all.stderr);
  assert.match(all.stdout, /^== acme\/tiny-bert \(hub:acme\/tiny-bert@main\)$/m);
  assert.match(all.stdout, /^== tiny \(generated: tiny\)$/m);
  // The architecture spec's own section: its inputs (names in graph order) and its ops.
  const section = all.stdout.split(/^== /m).find((s) => s.startsWith(`${spec} (generated: ${spec})\n`)) ?? '';
  assert.ok(section !== '', `no section for --config ${spec}:\n${all.stdout}`);
  const inputs = /^inputs +([^]*?)\noutputs /m.exec(section)?.[1] ?? '';
  assert.deepEqual(inputs.split('\n').map((l) => l.trim().split(' ')[0]), ['input_ids', 'attention_mask', 'token_type_ids']);
  assert.match(section, /^ops [^]*\bMatMul ×\d+/m);
});
