/**
 * In an isolated child (one engine open per process), tfjs-node's probe
 * starts no probe child: the open's own import with the requested threads
 * is the probe. The probe child cost ~1.7 s of CPU per round there.
 */
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { test } from 'node:test';
import { createTfjsEngine } from '../../engines/tfjs/tfjs-engine.js';
import { nativeThreads } from '../../engines/tfjs/native-library.js';
import { markIsolatedProcess } from '../../src/core/isolated-process.js';

function installed(pkg: string): boolean {
  try {
    createRequire(import.meta.url).resolve(`${pkg}/package.json`);
    return true;
  } catch {
    return false;
  }
}

const skip = installed('@tensorflow/tfjs-node') ? false : '@tensorflow/tfjs-node is not built here (npm run setup:tfjs-node)';

test('in an isolated child, tfjs-node is available from its install alone: no probe child reads libtensorflow, nor is it loaded here', { skip }, async () => {
  markIsolatedProcess();
  const a = await createTfjsEngine('node').probe();
  assert.ok(a.available, a.available ? '' : a.reason);
  assert.equal(a.versions['@tensorflow/tfjs-node'], '4.22.0');
  // A probe child reports libtensorflow's version; none ran, and the load that follows reads it back from the loaded library.
  assert.equal(a.versions['libtensorflow'], undefined);
  assert.equal(nativeThreads(), undefined, 'libtensorflow stays unloaded until the load chooses its threads');
});
