import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { test } from 'node:test';

test('importing the tfjs engine module loads no TensorFlow.js package until probe or open', () => {
  const engineUrl = new URL('../../../engines/tfjs/tfjs-engine.js', import.meta.url).href;
  const script = `
    import { createRequire } from 'node:module';
    const { createTfjsEngine } = await import(${JSON.stringify(engineUrl)});
    createTfjsEngine('wasm'); createTfjsEngine('cpu');
    const loaded = () => Object.keys(createRequire(import.meta.url).cache).filter((k) => k.includes('@tensorflow'));
    const before = loaded().length;
    await createTfjsEngine('cpu').probe();
    console.log(JSON.stringify({ before, after: loaded().length }));
  `;
  const r = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8', cwd: fileURLToPath(new URL('.', import.meta.url)) });
  assert.equal(r.status, 0, r.stderr);
  const { before, after } = JSON.parse(r.stdout.trim().split('\n').pop() ?? '{}') as { before: number; after: number };
  assert.equal(before, 0, 'tfjs was imported at module load');
  assert.ok(after > 0, 'probe should have imported tfjs (the check itself is broken otherwise)');
});
