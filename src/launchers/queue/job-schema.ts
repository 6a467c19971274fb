/**
 * What an inferbench worker accepts from the queue: an envelope it checks
 * the same way whatever the scenario (a registered schema, the run id, the
 * target workers, the refusals so far) around the fields of the job's
 * kind, which that kind's own checks validate (src/scenarios/queue-jobs.ts).
 * A job carries no code, no module path and no shell command; every field
 * is checked, and anything else is refused with the reason, so a queue
 * shared with other software cannot make a worker run something it was not
 * built to run. The queue names no scenario.
 */
import { isPlainRecord, list, literal, map, NAME, nullable, record, text, type Check } from '../../core/job-checks.js';
import { kindFormerly, queueJobKind, queueJobSchemas, type QueueJob, type QueueJobKind } from '../../core/queue-jobs.js';

/** The check of a whole job of `kind`: the envelope's fields around the kind's, each field checked, no other field allowed. */
function jobCheck(kind: QueueJobKind): Check {
  return record({
    schema: literal(kind.schema),
    runId: text(128, NAME),
    ...kind.fields,
    workers: nullable(list(text(64, NAME), 1000)),
    refused: map(text(64, NAME), text(8192), 1000),
  });
}

/**
 * Checks a job's data: the job, or the first reason it is not
 * one, naming the field (`field "model.manifest.name" must be …`) and never
 * echoing its value.
 */
export function parseQueueJob(data: unknown): { readonly ok: true; readonly job: QueueJob } | { readonly ok: false; readonly reason: string } {
  if (!isPlainRecord(data)) return { ok: false, reason: 'job data is not an object' };
  const kind = queueJobKind(data['schema']);
  if (kind === undefined) {
    const newer = kindFormerly(data['schema']);
    if (newer !== undefined) return { ok: false, reason: `job schema ${String(data['schema'])} is an older inferbench's (this worker runs ${newer.schema}): run the same inferbench version on the coordinator and every worker` };
    return { ok: false, reason: `job schema is not ${queueJobSchemas().join(' or ') || 'any registered one'}` };
  }
  const reason = jobCheck(kind)(data, '');
  return reason === null ? { ok: true, job: data as unknown as QueueJob } : { ok: false, reason };
}

/** Job id: the run id and the group's position, so a job re-offered after a worker died is still one job, counted once. */
export function queueJobId(runId: string, index: number): string {
  return `${runId}.g${index}`;
}
