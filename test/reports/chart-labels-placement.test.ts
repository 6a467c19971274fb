/**
 * Issue 47, point 4: value labels never overlap one another or an axis.
 * placeInPlot puts each label above, below, right or left of its point in
 * plot pixels, or leaves it out; pixelScale reproduces vega's mapping so the
 * placement holds where vega draws.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { intersects, labelBox, pixelScale, placeInPlot, type PlotPoint } from '../../reports/chart-labels.js';
import { measureDejaVu } from '../../reports/chart-text-metrics.js';

const PLOT = { width: 360, height: 300 };

test('a crowded plot: no two placed labels intersect, none leaves the plot, and the crowded ones are left out', () => {
  // 12 engines at 4 x positions with values a few pixels apart: far more labels than room.
  const points: PlotPoint[] = [];
  for (let e = 0; e < 12; e++) for (const [k, x] of [20, 120, 220, 340].entries()) points.push({ x, y: 150 + e * 3 + k, text: `${(1.1 + e / 100).toFixed(2)}k/s NOISY`, radius: 4.5 });
  const places = placeInPlot(points, PLOT);
  const boxes = places.flatMap((where, i) => {
    const p = points[i] as PlotPoint;
    return where === 'none' ? [] : [labelBox(p.x, p.y, where, measureDejaVu(p.text, 10, false))];
  });
  assert.ok(boxes.length >= 4, `some labels placed (${boxes.length})`);
  assert.ok(places.includes('none'), 'some left out');
  for (const [i, a] of boxes.entries()) {
    assert.ok(a.x0 >= 0 && a.y0 >= 0 && a.x1 <= PLOT.width && a.y1 <= PLOT.height, `label ${i} inside the plot`);
    for (const b of boxes.slice(i + 1)) assert.ok(!intersects(a, b), `labels overlap: ${JSON.stringify(a)} ${JSON.stringify(b)}`);
    for (const p of points) assert.ok(!intersects(a, { x0: p.x - 4.5, y0: p.y - 4.5, x1: p.x + 4.5, y1: p.y + 4.5 }), 'no label covers a point');
  }
});

test('labels go above their point first, then below, right and left; a label by the x axis never crosses it', () => {
  assert.deepEqual(placeInPlot([{ x: 100, y: 100, text: '1.33k/s' }, { x: 200, y: 200, text: '1.17k/s' }], PLOT), ['above', 'above']);
  // Two points 4 px apart: the upper above, the lower below.
  assert.deepEqual(placeInPlot([{ x: 100, y: 100, text: '1.33k/s' }, { x: 100, y: 104, text: '1.17k/s' }], PLOT), ['above', 'below']);
  // At the top edge nothing fits above.
  assert.equal(placeInPlot([{ x: 100, y: 2, text: '9k/s' }], PLOT)[0], 'below');
  // At the bottom-left corner: not below (the x axis), not left (the y axis).
  const corner = placeInPlot([{ x: 3, y: 298, text: '5/s' }, { x: 3, y: 292, text: '6/s' }], PLOT);
  assert.ok(!corner.includes('left'));
  // An obstacle (a goal line's caption) is never covered.
  assert.notEqual(placeInPlot([{ x: 100, y: 100, text: '12 ms' }], PLOT, { obstacles: [{ x0: 80, y0: 80, x1: 120, y1: 95 }] })[0], 'above');
});

test('pixelScale maps values as vega does: log padding, a zero-based nice linear domain', () => {
  const log = pixelScale({ type: 'log', padding: 36 }, [1, 2, 4, 8], 360);
  assert.ok(Math.abs(log(1) - 36) < 1e-9, 'the first point sits padding pixels from the axis');
  assert.ok(Math.abs(log(8) - 324) < 1e-9);
  assert.ok(Math.abs(log(2) - 132) < 1e-9);
  // Linear from zero, domain rounded up to d3's nice bound: 0–1,330 becomes 0–1,400.
  const linear = pixelScale({ type: 'linear', zero: true, nice: true }, [1170, 1330], 300);
  assert.equal(linear(0), 0);
  assert.ok(Math.abs(linear(1400) - 300) < 1e-9, `1400 at the top: ${linear(1400)}`);
  assert.equal(pixelScale({ type: 'log' }, [5, 5], 100)(5), 50, 'one value: the middle');
});
