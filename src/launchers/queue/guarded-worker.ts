/**
 * A BullMQ Worker that survives a job it cannot even read. BullMQ parses a
 * job's stored `data`, `opts`, `progress` and `parent` as JSON when it
 * takes the job; a job injected with redis-cli whose `data` is not JSON
 * made that parse throw inside BullMQ, so the job stayed `active` forever
 * and the worker logged an unnamed "queue error" every few seconds. Here
 * such a job is handed to the processor as a marker instead, which fails
 * it once, naming the unreadable field.
 */
import type { Job, JobJsonRaw } from 'bullmq';
import queuePackages from './queue-require.cjs';

const { bullmq } = queuePackages;

/** Key of the marker data an unreadable job is replaced by; the processor fails the job with its text. */
export const UNREADABLE = '__inferbench_unreadable__';

/** The stored fields BullMQ parses as JSON when it takes a job. */
const JSON_FIELDS = ['data', 'opts', 'progress', 'parent'] as const;

/** Which stored field of a raw job is not JSON, or null when every one parses. */
function unreadableField(raw: JobJsonRaw): string | null {
  for (const field of JSON_FIELDS) {
    const text = raw[field];
    if (text === undefined || text === '') continue;
    try {
      JSON.parse(text);
    } catch {
      return field;
    }
  }
  return null;
}

/** The marker's text, when `job` is one. */
export function unreadableReason(job: Job): string | null {
  const data = job.data as Record<string, unknown> | null;
  return typeof data === 'object' && data !== null && Object.hasOwn(data, UNREADABLE) ? String(data[UNREADABLE]) : null;
}

export class GuardedWorker extends bullmq.Worker {
  protected override createJob(raw: JobJsonRaw, jobId: string): Job {
    const field = unreadableField(raw);
    if (field === null) return super.createJob(raw, jobId);
    // Nothing of the stored job is kept but its identity: the processor fails it with the reason.
    const { parent: _parent, parentKey: _parentKey, ...rest } = raw;
    return super.createJob({ ...rest, data: JSON.stringify({ [UNREADABLE]: `its stored ${field} is not JSON` }), opts: '{}', progress: '0' }, jobId);
  }
}
