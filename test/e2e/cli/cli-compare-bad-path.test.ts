import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { isCleanUserError, runCli } from '../../helpers/cli.js';
import { writeRunFolder } from '../../helpers/run-folders.js';
import { buildSweepRun } from '../../helpers/sweep-run.js';
import { testOutputDir } from '../../helpers/test-cache.js';

const FIX = 'fix: pass a run folder written by `inferbench run` (<out>/<run-id>/) or the results.json inside it';

test('a missing or unreadable run path is a clean user error naming the path', async () => {
  const dir = testOutputDir('compare-bad');
  const good = writeRunFolder(dir, buildSweepRun());

  const missing = join(dir, 'no-such-run');
  const r1 = await runCli(['compare', good, missing]);
  assert.ok(isCleanUserError(r1), r1.stderr);
  assert.ok(r1.stderr.includes(`error: run not found: ${missing}`), r1.stderr);
  assert.ok(r1.stderr.includes(FIX));

  const empty = join(dir, 'empty-folder');
  mkdirSync(empty);
  const r2 = await runCli(['compare', empty, good]);
  assert.ok(isCleanUserError(r2), r2.stderr);
  assert.ok(r2.stderr.includes(`error: no results.json in ${empty}`), r2.stderr);

  const broken = join(dir, 'broken.json');
  writeFileSync(broken, '{"schemaVersion": 1, "cells": [');
  const r3 = await runCli(['compare', good, broken]);
  assert.ok(isCleanUserError(r3), r3.stderr);
  assert.ok(r3.stderr.includes(`error: cannot read run ${broken}: it is not valid JSON`), r3.stderr);

  const other = join(dir, 'other.json');
  writeFileSync(other, '{"name": "not a run"}');
  const r4 = await runCli(['compare', other, good]);
  assert.ok(isCleanUserError(r4), r4.stderr);
  assert.ok(r4.stderr.includes(`error: cannot read run ${other}: it is not an inferbench results file`), r4.stderr);

  const r5 = await runCli(['compare', good]);
  assert.ok(isCleanUserError(r5), r5.stderr);
  assert.match(r5.stderr, /error: compare needs exactly two runs, got 1/u);
});
