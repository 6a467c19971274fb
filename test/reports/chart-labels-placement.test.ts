import { test } from 'node:test';
import assert from 'node:assert/strict';
import { placeLabels } from '../../reports/chart-labels.js';

test('point labels go above, below or beside their point, or nowhere, never on top of each other', () => {
  // Far apart: every label above its point.
  assert.deepEqual(placeLabels([{ x: 1, v: 100 }, { x: 1, v: 900 }], false), ['above', 'above']);
  // Close together at one x: the higher label above, the lower one below.
  assert.deepEqual(placeLabels([{ x: 1, v: 500 }, { x: 1, v: 480 }, { x: 2, v: 900 }], false), ['above', 'below', 'above']);
  // Three in a cluster: the third goes beside its point.
  const cluster = placeLabels([{ x: 1, v: 500 }, { x: 1, v: 490 }, { x: 1, v: 480 }, { x: 2, v: 1000 }], false);
  assert.deepEqual(cluster, ['above', 'right', 'below', 'above']);
  // A label below a point near zero would sit on the axis, so it goes beside instead.
  const nearZero = placeLabels([{ x: 1, v: 5 }, { x: 1, v: 40 }, { x: 2, v: 1000 }], false);
  assert.notEqual(nearZero[0], 'below');
  // Log axes compare ratios: 10 and 11 collide, 10 and 100 do not.
  assert.deepEqual(placeLabels([{ x: 1, v: 10 }, { x: 1, v: 100 }, { x: 2, v: 1 }], true), ['above', 'above', 'above']);
  assert.deepEqual(placeLabels([{ x: 1, v: 11 }, { x: 1, v: 10 }, { x: 2, v: 1 }, { x: 2, v: 1000 }], true).slice(0, 2), ['above', 'below']);
});
