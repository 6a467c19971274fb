/**
 * The example scenario's measurement and child job. `timeStarts` times
 * each engine's first probe in the process it runs in; registered as the
 * child job of kind 'startup', it runs in a fresh child process, where no
 * engine has started yet, so each figure is a cold start. The scenario's
 * registration names this module (`childModule`), so the one child entry
 * imports it and knows the kind, as it knows a built-in's.
 */
import { registerChildJob, type Launch } from '../../../src/core/launch-jobs.js';
import { unavailableText, type EngineRegistry } from '../../../src/core/engine-registry.js';
import type { StartupSample } from './startup-results.js';

export const STARTUP_KIND = 'startup';
/** This module as the child imports it: the registration's `childModule`. */
export const STARTUP_CHILD_MODULE = import.meta.url;

/** One round of starts: plain data, so it crosses to a child process. */
export interface StartupJob {
  readonly engines: readonly string[];
  readonly round: number;
  /** The run's process: a sample timed in any other is a cold start. */
  readonly parentPid: number;
}

/** Times each engine's probe in this process, handing each sample on as it is measured. */
export async function timeStarts(job: StartupJob, registry: EngineRegistry, io: { readonly start: (engine: string) => void; readonly result: (sample: StartupSample) => Promise<void> }): Promise<void> {
  for (const engine of job.engines) {
    io.start(engine);
    const started = performance.now();
    const status = await registry.status(engine);
    const probeMs = performance.now() - started;
    const a = status.availability;
    // What started, read back from the engine: its runtime's versions, or why it could not start.
    const found = a.available ? { available: true, versions: a.versions } : { available: false, reason: unavailableText(status) };
    await io.result({ engine, round: job.round, probeMs, pid: process.pid, inChild: process.pid !== job.parentPid, ...found });
  }
}

registerChildJob<StartupJob, string, StartupSample>(STARTUP_KIND, (job, io) => timeStarts(job, io.registry, io));

/** The launch of one round: the kind, its payload, and how its keys (engines) and samples are told apart. */
export function startupLaunch(job: StartupJob): Launch<string, StartupSample> {
  return {
    kind: STARTUP_KIND,
    payload: job,
    keys: job.engines,
    keyId: (engine) => engine,
    resultId: (sample) => sample.engine,
    failed: (engine, reason) => ({ engine, round: job.round, probeMs: null, pid: 0, inChild: true, available: false, reason }),
  };
}
