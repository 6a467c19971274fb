import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import type { RunRecord } from '../../../src/core/results.js';
import { runCli } from '../../helpers/cli.js';
import { testOutputDir } from '../../helpers/test-cache.js';

/** Each cell's state by `threads/batch`, from results.csv (its rows are sorted for reading, not in sweep order). */
function csvStates(csv: string): Map<string, string> {
  const [header, ...rows] = csv.trim().split('\n');
  const names = (header ?? '').split(',');
  const [threads, batch, state] = ['requested_threads', 'batch_size', 'state'].map((n) => names.indexOf(n));
  assert.ok(threads !== undefined && batch !== undefined && state !== undefined && Math.min(threads, batch, state) >= 0, 'results.csv has its key and state columns');
  // The columns up to `state` hold no quoted commas in this run (one engine, one version each), so a plain split finds them.
  return new Map(rows.map((r) => r.split(',')).map((f) => [`${f[threads]}/${f[batch]}`, f[state] ?? '']));
}

/** Each cell's state by `threads/batch` as results.csv names it: a completed cell the stop cut short reads `interrupted`. */
function jsonStates(run: RunRecord): Map<string, string> {
  return new Map(run.cells.map((c) => [`${c.requestedThreads}/${c.batchSize}`, c.state === 'completed' && c.interrupted === true ? 'interrupted' : c.state]));
}

test('after SIGINT, results.json, results.csv and `show --json` give every cell the same state', async () => {
  const out = testOutputDir('stop-sigint-states');
  let sent = false;
  // Two open groups (threads 1 then 2): the first group's cells are reported when its process ends, so SIGINT then lands
  // in the second group, whose cells end up cut short, skipped, or (one in flight) completed: the mix the files must agree on.
  const r = await runCli(['run', '--engines', 'onnx-cpu', '--threads', '1,2', '--batch-sizes', '1,2,4', '--limit', '64', '--min-batches', '400', '--rounds', '1', '--min-time', '0', '--no-png', '--out', out], {
    onStderr: (text, child) => {
      if (!sent && /\[3\/6\] onnx-cpu/.test(text)) {
        sent = true;
        child.kill('SIGINT');
      }
    },
  });
  assert.ok(sent, `no cell finished:\n${r.stderr}`);
  assert.equal(r.code, 130, r.stderr);
  const [runId] = readdirSync(out).filter((f) => !f.startsWith('history') && !f.startsWith('.'));
  assert.ok(runId);
  const dir = join(out, runId);
  const run = JSON.parse(readFileSync(join(dir, 'results.json'), 'utf8')) as RunRecord;
  assert.equal(run.state, 'interrupted');
  assert.equal(run.cells.length, 6, 'every cell is accounted for');
  const fromJson = jsonStates(run);
  assert.equal(fromJson.size, 6);
  assert.ok([...fromJson.values()].some((s) => s !== 'completed'), `the stop left a cell unfinished: ${[...fromJson].join(' ')}`);
  assert.deepEqual(csvStates(readFileSync(join(dir, 'results.csv'), 'utf8')), fromJson, 'results.csv states match results.json');
  const shown = await runCli(['show', runId, '--json', '--out', out]);
  assert.equal(shown.code, 0, shown.stderr);
  const history = JSON.parse(shown.stdout) as RunRecord;
  assert.equal(history.state, 'interrupted');
  assert.deepEqual(jsonStates(history), fromJson, 'the history states match results.json');
});
