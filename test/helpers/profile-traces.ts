/** The recorded instrument traces of `run --profile` (test/data/profile/), read for the tests that pin their arithmetic. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { packageRoot } from '../../src/core/package-info.js';
import { summarizeProfile, unattributedProfile, type ProfileCapture } from '../../src/core/op-profile.js';
import type { CellResult, RunRecord } from '../../src/core/results.js';
import { ortTraceEvents } from '../../engines/onnx/ort-profile.js';
import { buildSampleRun } from './sample-run.js';

/** test/data/profile/<name> parsed: ORT's trace arrays (ort-node-bert.json, ort-web-bert.json), or a recorded capture. */
export function recordedTrace(name: string): unknown {
  return JSON.parse(readFileSync(join(packageRoot(), 'test', 'data', 'profile', name), 'utf8')) as unknown;
}

/** A recorded capture of the tfjs instruments (tfjs-translator-bert.json, tf-profile-bert.json), two calls each. */
export function recordedCapture(name: string): ProfileCapture {
  return recordedTrace(name) as ProfileCapture;
}

/** The sample run with a profile on each completed cell: ORT's recorded trace on onnx-*, the translator's on tfjs-*, one unattributed. */
export function profiledRun(scale = 1): RunRecord {
  const run = buildSampleRun();
  const ort = ortTraceEvents(recordedTrace('ort-node-bert.json') as unknown[], 2);
  const translator = recordedCapture('tfjs-translator-bert.json');
  const cells = run.cells.map((c): CellResult => {
    if (c.state !== 'completed') return c;
    if (c.engine === 'tfjs-cpu') return { ...c, profile: unattributedProfile('none', 'tfjs-cpu has no op-level instrument in inferbench', [{ engineMs: 5, items: 1 }]) };
    const capture = c.engine.startsWith('onnx') ? ort : translator;
    const kernelMs = capture.events.reduce((a, e) => a + e.durUs, 0) / 2000;
    const matmul = (e: { opType: string }) => e.opType === 'MatMul' || e.opType === 'FusedMatMul';
    // Without start times (taken as disjoint), so a longer matmul does not overlap the events after it.
    const events = capture.events.map((e) => ({ ...e, startUs: null, durUs: matmul(e) ? e.durUs * scale : e.durUs }));
    // The engine time grows by the matmul time added, so matmul's share moves.
    const engineMs = kernelMs * 2 + (capture.events.filter(matmul).reduce((a, e) => a + e.durUs, 0) / 2000) * (scale - 1);
    return { ...c, profile: summarizeProfile({ ...capture, events }, [{ engineMs, items: c.batchSize }, { engineMs, items: c.batchSize }]) };
  });
  return { ...run, cells };
}
