import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { pathToFileURL } from 'node:url';
import { join } from 'node:path';
import { packageRoot } from '../../../src/core/package-info.js';

// A resolve hook that fails any import of the bundled ES module packages themselves, so what is drawn and written under it
// came from dist/vendor/ (vega.mjs, hyparquet-writer.mjs).
const hook = `export async function resolve(s, c, next) { if (/^(vega|vega-lite|hyparquet-writer)$/.test(s)) throw new Error('package import: ' + s); return next(s, c); }`;
const register = `import { register } from 'node:module'; register(${JSON.stringify(`data:text/javascript,${encodeURIComponent(hook)}`)});`;

test("a PNG is drawn and a Parquet file written with vega, vega-lite and hyparquet-writer from the build's one-module bundles (dist/vendor), not their hundreds of files one by one", () => {
  const dist = (...p: string[]) => JSON.stringify(pathToFileURL(join(packageRoot(), 'dist', ...p)).href);
  const spec = { width: 200, height: 100, data: { values: [{ a: 'x', b: 3 }, { a: 'y', b: 5 }] }, mark: 'bar', encoding: { x: { field: 'a', type: 'nominal' }, y: { field: 'b', type: 'quantitative' } } };
  const table = { rowCount: 2, columns: [{ name: 'engine', kind: 'string', values: ['onnx-cpu', 'onnx-wasm'] }, { name: 'ms', kind: 'float', values: [1.5, 2.5] }] };
  const script = [
    `const { renderPng } = await import(${dist('reports', 'png-chart.js')});`,
    `const { renderParquet } = await import(${dist('reports', 'parquet-report.js')});`,
    `const png = await renderPng(${JSON.stringify(spec)});`,
    `const parquet = await renderParquet(${JSON.stringify(table)});`,
    `process.stdout.write(JSON.stringify({ png: png.length, parquet: Buffer.from(parquet.subarray(0, 4)).toString() }));`,
  ].join('\n');
  const r = spawnSync(process.execPath, [`--import=data:text/javascript,${encodeURIComponent(register)}`, '--input-type=module', '-e', script], { encoding: 'utf8', timeout: 120_000 });
  assert.equal(r.status, 0, r.stderr);
  const out = JSON.parse(r.stdout) as { png: number; parquet: string };
  assert.ok(out.png > 1000, `a PNG of ${out.png} bytes`);
  assert.equal(out.parquet, 'PAR1', 'a Parquet file');
});
