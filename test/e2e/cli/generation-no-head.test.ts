import assert from 'node:assert/strict';
import { test } from 'node:test';
import { defaultClassifier } from '../../../src/models/default-classifier.js';
import { UserError } from '../../../src/core/errors.js';
import { BenchmarkWrapper } from '../../../src/scenarios/generate/benchmark-wrapper.js';
import { TextGeneration } from '../../../src/models/text-generation.js';
import { runCli, isCleanUserError } from '../../helpers/cli.js';
import { useTestCache } from '../../helpers/test-cache.js';

useTestCache();

test('a model without a generation head gets a clear error', async () => {
  const classifier = await defaultClassifier();
  assert.throws(() => new TextGeneration(classifier.dir), (err: unknown) => {
    assert.ok(err instanceof UserError);
    assert.match(err.message, /has no generation head: config\.json says BertForSequenceClassification/);
    assert.match(err.fix ?? '', /text-generation model/);
    return true;
  });
  assert.throws(() => new BenchmarkWrapper(classifier as never), /model tiny-bert \(embedded default\) has no generation head: it has no generate\(\) method/);
  assert.throws(() => new BenchmarkWrapper({ can_generate: false, generate: async () => null }), /no generation head \(can_generate is false\)/);
  const cli = await runCli(['generate', '--model', classifier.dir, '--engines', 'onnx-cpu']);
  assert.ok(isCleanUserError(cli), cli.stderr);
  assert.match(cli.stderr, /has no generation head/);
});
