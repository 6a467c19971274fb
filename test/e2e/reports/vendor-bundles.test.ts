import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { pathToFileURL } from 'node:url';
import { join } from 'node:path';
import { packageRoot } from '../../../src/core/package-info.js';

// A resolve hook that fails any import of the vega or vega-lite packages themselves, so a chart drawn under it came from dist/vendor/vega.mjs.
const hook = `export async function resolve(s, c, next) { if (/^vega(-lite)?$/.test(s)) throw new Error('package import: ' + s); return next(s, c); }`;
const register = `import { register } from 'node:module'; register(${JSON.stringify(`data:text/javascript,${encodeURIComponent(hook)}`)});`;

test('a PNG is drawn with vega and vega-lite from the build\'s one-module bundle (dist/vendor/vega.mjs), not their ~400 files one by one', () => {
  const chart = pathToFileURL(join(packageRoot(), 'dist', 'reports', 'png-chart.js')).href;
  const spec = { width: 200, height: 100, data: { values: [{ a: 'x', b: 3 }, { a: 'y', b: 5 }] }, mark: 'bar', encoding: { x: { field: 'a', type: 'nominal' }, y: { field: 'b', type: 'quantitative' } } };
  const script = `const { renderPng } = await import(${JSON.stringify(chart)}); const png = await renderPng(${JSON.stringify(spec)}); process.stdout.write(String(png.length));`;
  const r = spawnSync(process.execPath, [`--import=data:text/javascript,${encodeURIComponent(register)}`, '--input-type=module', '-e', script], { encoding: 'utf8', timeout: 120_000 });
  assert.equal(r.status, 0, r.stderr);
  assert.ok(Number(r.stdout) > 1000, `a PNG of ${r.stdout} bytes`);
});
