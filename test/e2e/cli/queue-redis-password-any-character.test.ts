import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { UserError } from '../../../src/core/errors.js';
import { parseRedisUrl } from '../../../src/launchers/queue/redis-url.js';
import { runCli } from '../../helpers/cli.js';
import { REDIS_SKIP, startRedis, startWorker } from '../../helpers/redis-server.js';
import { testOutputDir } from '../../helpers/test-cache.js';

/** Every printable ASCII character, and a few beyond it. */
const CHARACTERS = [...Array.from({ length: 0x7f - 0x20 }, (_, i) => String.fromCharCode(0x20 + i)), 'é', '€', '密', '🔑'];

test('a password with any character is decoded whole and never shown: percent-encoded, or typed raw', () => {
  for (const c of CHARACTERS) {
    const password = `Se${c}cr${c}et`;
    const encoded = parseRedisUrl(`redis://bench:${encodeURIComponent(password)}@127.0.0.1:6379/3`);
    assert.equal(encoded.options.password, password, `encoded ${JSON.stringify(c)}`);
    assert.equal(encoded.masked, 'redis://bench:***@127.0.0.1:6379/3', `encoded ${JSON.stringify(c)}`);
    // Typed raw, as users do: either it parses to the whole password, or it is refused without a word of it.
    const raw = `redis://bench:${password}@127.0.0.1:6379`;
    try {
      const parsed = parseRedisUrl(raw);
      assert.ok(!parsed.masked.includes('cr'), `raw ${JSON.stringify(c)}: ${parsed.masked}`);
      if (c !== '%') assert.equal(parsed.options.password, password, `raw ${JSON.stringify(c)}`);
    } catch (err) {
      assert.ok(err instanceof UserError, `raw ${JSON.stringify(c)}: ${String(err)}`);
      assert.ok(!`${err.message} ${err.fix}`.includes('cr'), `raw ${JSON.stringify(c)}: ${err.message}`);
    }
  }
  // A lone user name is a token: hidden too.
  assert.equal(parseRedisUrl('redis://tok@en@h:1').masked, 'redis://***@h:1');
});

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesUnder(path) : [path];
  });
}

test('redis://default:p@Leak9:Secret@host connects, and no part of that password reaches a result file, the history or a log', { skip: REDIS_SKIP }, async () => {
  const password = 'p@Leak9:Secret';
  const redis = await startRedis({ password });
  const url = `redis://default:${password}@127.0.0.1:${redis.port}`;
  const worker = await startWorker(url, 'guarded', ['--engines', 'onnx-cpu']);
  try {
    const out = testOutputDir('queue-password-at');
    const r = await runCli(['run', '--queue', url, '--engines', 'onnx-cpu', '--batch-sizes', '1', '--rounds', '1', '--limit', '16', '--min-time', '0.2', '--max-time', '1', '--no-png', '--out', out]);
    assert.equal(r.code, 0, r.stderr);
    const files = filesUnder(out);
    assert.ok(files.some((f) => f.endsWith('results.json')) && files.some((f) => f.includes('history')), files.join('\n'));
    for (const file of files) assert.ok(!readFileSync(file).includes('Leak9'), `${file} holds part of the password`);
    assert.ok(!(r.stdout + r.stderr + worker.log()).includes('Leak9'), 'a log holds part of the password');
    assert.match(readFileSync(files.find((f) => f.endsWith('results.json'))!, 'utf8'), /"url": "redis:\/\/default:\*\*\*@127\.0\.0\.1:\d+"/);
  } finally {
    await worker.stop();
    await redis.stop();
  }
});
