import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import type { RunRecord } from '../../../src/index.js';
import { runCli } from '../../helpers/cli.js';
import { testOutputDir } from '../../helpers/test-cache.js';
import { tfjsNodeSkip } from '../../helpers/tfjs-node.js';

test('tfjs-node --threads 1,2: each isolated child sizes libtensorflow for its count and records it', { skip: await tfjsNodeSkip() }, async () => {
  const out = testOutputDir('tfjs-node-threads');
  // No charts and no parity reference: what each child records about its threads is the subject, not the PNGs or the outputs.
  const r = await runCli(['run', '--engines', 'tfjs-node', '--threads', '1,2', '--batch-sizes', '1', '--limit', '4', '--min-time', '0', '--min-batches', '1', '--rounds', '1', '--reference', 'none', '--no-png', '--out', out], { timeoutMs: 240_000 });
  assert.equal(r.code, 0, r.stderr);
  const [runId] = readdirSync(out);
  const run = JSON.parse(readFileSync(join(out, runId ?? '', 'results.json'), 'utf8')) as RunRecord;
  const recorded = run.cells.map((c) => {
    assert.equal(c.state, 'completed', JSON.stringify(c));
    if (c.state !== 'completed') return '';
    const note = c.session.notes?.find((n) => n.startsWith('libtensorflow threads:')) ?? '';
    // Linux lets the inter-op pool be counted (tf_Compute threads): it must match the count set.
    if (process.platform === 'linux') assert.match(note, new RegExp(`inter-op ${c.requestedThreads} \\(read back\\)`), note);
    return `${c.requestedThreads}->${c.session.threads}`;
  });
  assert.deepEqual(recorded.sort(), ['1->1', '2->2']);
});
