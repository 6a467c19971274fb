/**
 * The load scenario's child job: each round of each model × engine is
 * served from a fresh process, so one engine's allocations and threads
 * never disturb another's latencies and a crash becomes an errored cell.
 * The parent half (`loadChildRunner`) turns a group into plain data (the
 * rows the parent read, so the child serves exactly those); the child half
 * (registered as 'load') re-creates the model from its folder, opens one
 * engine and sends each probe back as it is measured.
 */
import type { LoadCellKey } from './load-results.js';
import type { ModelSpec } from '../../models/model-spec.js';
import type { TextClassification } from '../../models/text-classification.js';
import { modelFromSpec } from '../../models/model-from-spec.js';
import { registerChildJob, type Launcher } from '../../core/launch-jobs.js';
import { measureServerGroup, type LoadGroup, type LoadGroupResult, type LoadGroupRunner } from './rate-group.js';

/** The group's own fields, with the model as its spec in place of the live object, which cannot cross a process. */
export interface LoadChildJob extends Omit<LoadGroup, 'model' | 'registry' | 'signal'> {
  readonly model: ModelSpec;
}

const keyId = (k: LoadCellKey): string => `${k.model}|${k.engine}|${k.batchSize}|${k.requestedThreads}`;

/** Results that end a key (a failure or the round's end); probes carry an id no key has. */
function resultId(r: LoadGroupResult): string {
  return r.kind === 'probe' ? `${keyId(r.key)}#probe` : keyId(r.key);
}

/** A group runner that runs one child per model × engine and round through `launch`. */
export function loadChildRunner(launch: Launcher): LoadGroupRunner {
  return (group, hooks) => {
    const model = (group.model as { isolationSpec?: () => ModelSpec }).isolationSpec?.();
    if (model === undefined) throw new Error(`model ${group.model.name} cannot be re-created in a child process (no isolationSpec)`);
    return launch<LoadCellKey, LoadGroupResult>(
      {
        kind: 'load',
        payload: { model, engine: group.engine, threads: group.threads, key: group.key, round: group.round, plan: group.plan, rows: group.rows, columns: group.columns } satisfies LoadChildJob,
        keys: [group.key],
        keyId,
        resultId,
        failed: (key, reason) => ({ kind: 'failed', key, round: group.round, cell: { ...key, state: 'errored', reason } }),
      },
      { onStart: hooks.onStart, onResult: hooks.onResult },
      group.signal,
    );
  };
}

registerChildJob<LoadChildJob, LoadCellKey, LoadGroupResult>('load', async (job, io) => {
  if (job.model.kind !== 'text-classification') throw new Error(`inferbench load needs a text-classification model, got a ${job.model.kind} spec`);
  // A feature-extraction spec re-creates a FeatureExtraction (a TextClassification whose sessions pool).
  const model = (await modelFromSpec(job.model)) as TextClassification;
  await measureServerGroup(
    { model, engine: job.engine, threads: job.threads, key: job.key, round: job.round, plan: job.plan, rows: job.rows, columns: job.columns, registry: io.registry, signal: io.signal },
    { onStart: io.start, onResult: io.result },
  );
});
