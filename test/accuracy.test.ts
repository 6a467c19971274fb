import assert from 'node:assert/strict';
import { test } from 'node:test';
import { accuracyOf } from '../src/accuracy.js';
import { hostTensor } from '../src/tensor.js';

test('accuracyOf compares the argmax of each row of logits with its label', () => {
  const logits = hostTensor('float32', [4, 2], Float32Array.from([0.1, 0.9, 2, -1, 0.3, 0.2, -5, 5]));
  assert.deepEqual(accuracyOf(logits, [1, 0, 1, 1]), { correct: 3, total: 4 });
  assert.deepEqual(accuracyOf(logits, [1n, 0n, 0n, 1n]), { correct: 4, total: 4 }, 'int64 labels from Parquet and Arrow');
  assert.deepEqual(accuracyOf(logits, ['1', ' 0', '1', '1']), { correct: 3, total: 4 }, 'numeric strings from CSV');
  assert.deepEqual(accuracyOf(logits, ['positive', 'NEGATIVE', 'negative', 'positive'], { negative: 0, positive: 1 }), { correct: 4, total: 4 });
  assert.deepEqual(accuracyOf(logits, [1, null, undefined, 'meh']), { correct: 1, total: 1 }, 'rows without a usable label are not scored');

  const three = hostTensor('float32', [2, 3], Float32Array.from([0, 1, 2, 5, 1, 0]));
  assert.deepEqual(accuracyOf(three, [2, 0]), { correct: 2, total: 2 });
  const sigmoid = hostTensor('float32', [3, 1], Float32Array.from([0.7, -0.2, 0]));
  assert.deepEqual(accuracyOf(sigmoid, [1, 0, 1]), { correct: 2, total: 3 }, 'a single logit predicts 1 when positive');
  assert.deepEqual(accuracyOf(hostTensor('float32', [0, 2], new Float32Array(0)), []), { correct: 0, total: 0 });
  assert.throws(() => accuracyOf(logits, [1, 0]), /4 rows but 2 labels/u);
});
