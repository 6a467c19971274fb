import { test } from 'node:test';
import assert from 'node:assert/strict';
import { request } from 'node:http';
import { accessToken, isLoopback } from '../../src/dashboard/security.js';
import { call, startTestDashboard } from '../helpers/dashboard.js';
import { testOutputDir } from '../helpers/test-cache.js';

/** A GET with a Host header of our choosing (fetch does not allow setting it). */
function getWithHost(port: number, host: string, path: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, headers: { host } }, (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    req.on('error', reject);
    req.end();
  });
}

test('off loopback a token is generated and every API call without it gets 401', async (t) => {
  const dash = await startTestDashboard(testOutputDir('server-auth'), { host: '0.0.0.0', engines: ['onnx-cpu'] });
  t.after(() => dash.close());
  assert.ok(dash.token !== null && dash.token.length >= 32, 'a long random token');
  const base = `http://127.0.0.1:${dash.port}/`;

  for (const [method, path, body] of [
    ['GET', '/api/runs', undefined],
    ['GET', '/api/info', undefined],
    ['GET', '/api/events', undefined],
    ['GET', '/api/runs/1', undefined],
    ['POST', '/api/runs', { batchSizes: [1] }],
    ['POST', '/api/runs/1/rerun', {}],
    ['DELETE', '/api/runs/1', undefined],
    ['GET', '/api/nowhere', undefined],
  ] as const) {
    const none = await call(base, method, path, body);
    assert.equal(none.status, 401, `${method} ${path} without a token`);
    assert.match(none.body.error, /needs its access token/);
    const wrong = await call(base, method, path, body, { authorization: `Bearer ${'x'.repeat(dash.token.length)}` });
    assert.equal(wrong.status, 401, `${method} ${path} with a wrong token`);
  }
  assert.equal((await call(base, 'GET', '/api/runs', undefined, { authorization: `Bearer ${dash.token}` })).status, 200);
  assert.equal((await call(base, 'GET', `/api/runs?token=${dash.token}`)).status, 200, 'the token in the query works (EventSource)');
  const page = await fetch(base);
  assert.equal(page.status, 200, 'the page itself carries no data and loads without the token');
  assert.match(await page.text(), /Add benchmark/);
});

test('on loopback no token is needed, but other sites cannot reach the API through a browser', async (t) => {
  const dash = await startTestDashboard(testOutputDir('server-loopback'), { engines: ['onnx-cpu'] });
  t.after(() => dash.close());
  assert.equal(dash.token, null);
  assert.equal(dash.host, '127.0.0.1');
  assert.equal((await call(dash.url, 'GET', '/api/runs')).status, 200);
  assert.equal(await getWithHost(dash.port, `evil.example:${dash.port}`, '/api/runs'), 403, 'DNS rebinding: a foreign Host is refused');
  assert.equal(await getWithHost(dash.port, `localhost:${dash.port}`, '/api/runs'), 200);
  const crossOrigin = await call(dash.url, 'POST', '/api/runs', { batchSizes: [1] }, { origin: 'http://evil.example' });
  assert.equal(crossOrigin.status, 403);
  assert.match(crossOrigin.body.error, /Origin http:\/\/evil\.example is not this dashboard/);
});

test('the token rules: loopback addresses, a given token must be long enough', () => {
  for (const host of ['127.0.0.1', '127.1.2.3', '::1', '[::1]', 'localhost', '::ffff:127.0.0.1']) assert.ok(isLoopback(host), host);
  for (const host of ['0.0.0.0', '192.168.1.4', '::', 'example.com']) assert.ok(!isLoopback(host), host);
  assert.equal(accessToken('127.0.0.1', undefined), null);
  assert.equal(accessToken('0.0.0.0', 'a-token-of-enough-length'), 'a-token-of-enough-length');
  assert.throws(() => accessToken('0.0.0.0', 'short'), /--token must be at least 16 characters/);
});
