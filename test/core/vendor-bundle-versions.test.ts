import { test } from 'node:test';
import assert from 'node:assert/strict';
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { installedVersion, packageRoot, vendorBundle } from '../../src/core/package-info.js';

/** A bundle file of this test's own beside the build's, with the versions file `versions` (or none), removed after. */
function fakeBundle(t: { after: (fn: () => void) => void }, versions: Record<string, string> | null): string {
  const file = `vendor-bundle-test-${process.pid}-${Math.random().toString(36).slice(2)}.cjs`;
  const path = join(packageRoot(), 'dist', 'vendor', file);
  writeFileSync(path, 'module.exports = {};\n');
  if (versions !== null) writeFileSync(`${path}.json`, `${JSON.stringify({ versions })}\n`);
  t.after(() => {
    rmSync(path, { force: true });
    rmSync(`${path}.json`, { force: true });
  });
  return file;
}

test('a vendor bundle is taken only while the packages it bundled are still the installed versions', (t) => {
  const duckdb = installedVersion('@duckdb/node-api');
  assert.ok(duckdb !== null, '@duckdb/node-api is installed');
  const current = fakeBundle(t, { '@duckdb/node-api': duckdb });
  assert.equal(vendorBundle(current), join(packageRoot(), 'dist', 'vendor', current));
  const stale = fakeBundle(t, { '@duckdb/node-api': '0.0.1' });
  assert.equal(vendorBundle(stale), null, 'node_modules updated since the build: the package itself is loaded');
  assert.equal(vendorBundle(fakeBundle(t, null)), null, 'no versions file: not known to match');
  assert.equal(vendorBundle('no-such-bundle.cjs'), null);
  // The build's own bundles match what is installed here.
  assert.ok(vendorBundle('duckdb-node-api.cjs') !== null && vendorBundle('vega.mjs') !== null && vendorBundle('hyparquet-writer.mjs') !== null);
});
