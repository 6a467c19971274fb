import { test } from 'node:test';
import assert from 'node:assert/strict';
import { UserError } from '../../../src/core/errors.js';
import { maskRedisUrl, parseRedisUrl } from '../../../src/launchers/queue/redis-url.js';

test('--queue accepts redis://user:password@host:port/db and rediss:// (TLS), and shows only the masked form', () => {
  const plain = parseRedisUrl('redis://bench:p%40ss@redis.lan:6380/2');
  assert.equal(plain.options.host, 'redis.lan');
  assert.equal(plain.options.port, 6380);
  assert.equal(plain.options.db, 2);
  assert.equal(plain.options.username, 'bench');
  assert.equal(plain.options.password, 'p@ss', 'percent-encoded passwords are decoded');
  assert.equal(plain.options.tls, undefined);
  assert.equal(plain.masked, 'redis://bench:***@redis.lan:6380/2');
  const tls = parseRedisUrl('rediss://:secret@cache.example.com');
  assert.deepEqual(tls.options.tls, { servername: 'cache.example.com' });
  assert.equal(tls.options.port, 6379);
  assert.equal(tls.masked, 'rediss://:***@cache.example.com');
  assert.equal(maskRedisUrl('redis://127.0.0.1:6379'), 'redis://127.0.0.1:6379', 'nothing to hide');
  assert.equal(maskRedisUrl('redis://token@h:1'), 'redis://***@h:1');
  for (const bad of ['http://h:1', 'redis:///', 'redis://h:1/x', 'not a url :secret@']) {
    assert.throws(() => parseRedisUrl(bad), (err: unknown) => err instanceof UserError && !err.message.includes('secret'), bad);
  }
});
