/**
 * Issue 47: `inferbench engines` is at most 40 lines at 100 columns. The
 * browsers' block (one wrapped paragraph per browser of what its page
 * offers) had taken it to 52 once Firefox and WebKit were found; the table
 * view now names the browsers and their versions on a line, and
 * `--explain chromium` (or firefox, webkit) gives one browser's offer.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { runCli, isCleanUserError } from '../../helpers/cli.js';

test('inferbench engines fits 40 lines of 100 columns, the browsers on a line, each one\'s offer behind --explain NAME', async () => {
  const r = await runCli(['engines'], { env: { COLUMNS: '100' } });
  assert.equal(r.code, 0, r.stderr);
  const lines = r.stdout.trimEnd().split('\n');
  assert.ok(lines.length <= 40, `${lines.length} lines:\n${r.stdout}`);
  assert.deepEqual(lines.filter((l) => [...l].length > 100), [], 'lines over 100 characters');
  assert.match(r.stdout, /^browsers \(run --browsers\): chromium /mu);
  assert.match(r.stdout.replace(/\n/gu, ' '), /what each offers: --explain chromium\|firefox\|webkit/u);

  const bad = await runCli(['engines', '--explain', 'nope']);
  assert.ok(isCleanUserError(bad), bad.stderr);
  assert.match(bad.stderr, /no engine or browser "nope".*chromium, firefox, webkit/su);
});

test('inferbench engines --explain chromium says what a page offers in it', { skip: existsSync('/usr/bin/chromium') ? false : 'Debian chromium is not installed (.ci/run installs it)' }, async () => {
  const r = await runCli(['engines', '--explain', 'chromium'], { env: { COLUMNS: '100' } });
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stdout, /^ {2}chromium +\d[\d.]* \(playwright-core\): wasm SIMD (yes|no) · crossOriginIsolated/mu);
});
