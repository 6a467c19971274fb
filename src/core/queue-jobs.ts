/**
 * The registry of queue job kinds: what a scenario sends to an
 * `inferbench worker` over the queue, as plain data. A job is an envelope
 * the launchers check the same way whatever the scenario (its schema, run
 * id, target workers, refusals; src/launchers/queue/job-schema.ts) around
 * fields only the scenario knows; the kind lists those fields' checks, so
 * a worker still checks every field it is sent while the queue names no
 * scenario. The kind is looked up by the job's `schema`, a versioned name.
 * It lives in the core so that the queue launcher and the scenarios both
 * see it while neither imports the other.
 */
import { integer, list, record, SHA256, text, type Check } from './job-checks.js';

/** The fields every queue job has, whatever its kind. */
export interface QueueJob {
  /** The kind's versioned schema name (`inferbench.open-group/2`): it picks the checks of the other fields. */
  readonly schema: string;
  /** The coordinator's run id: results of another run's jobs are never mixed in. */
  readonly runId: string;
  /** The workers that may run it (`--on-each-worker`: one; `--workers`: those named); null: any worker. */
  readonly workers: readonly string[] | null;
  /** Workers that could not run it, with why (filled by the workers as they refuse). */
  readonly refused: Readonly<Record<string, string>>;
}

/** What the queue needs to know of a job kind, without knowing its scenario. */
export interface QueueJobKind<Job extends QueueJob = QueueJob> {
  readonly schema: string;
  /** The BullMQ job name its jobs are added under (shown by queue tools). */
  readonly name: string;
  /** Checks of the kind's own fields, in the order they are checked: a job with a field of neither these nor the envelope is refused. */
  readonly fields: Readonly<Record<string, Check>>;
  /** The engine a worker must have to run the job. */
  readonly engine: (job: Job) => string;
  /** One line for the worker's log: what the job measures. */
  readonly summary: (job: Job) => string;
  /** Schemas an older inferbench sent for this kind: a job of one is refused saying so, since coordinator and workers then run different versions. */
  readonly formerly?: readonly string[];
}

const kinds = new Map<string, QueueJobKind>();

/** The envelope's fields, which the launchers check; a kind may not list (and so loosen) them. */
const ENVELOPE_FIELDS: readonly (keyof QueueJob)[] = ['schema', 'runId', 'workers', 'refused'];

/** Registers a queue job kind; a schema registered twice, or a kind listing an envelope field, is a programming error. */
export function registerQueueJob<Job extends QueueJob>(kind: QueueJobKind<Job>): void {
  if (kinds.has(kind.schema)) throw new Error(`a queue job kind for schema '${kind.schema}' is already registered`);
  const taken = ENVELOPE_FIELDS.filter((f) => Object.hasOwn(kind.fields, f));
  if (taken.length > 0) throw new Error(`queue job kind '${kind.schema}' lists envelope field ${taken.join(', ')}, which the queue checks itself`);
  kinds.set(kind.schema, kind as unknown as QueueJobKind);
}

/** The kind registered for `schema`, or undefined: a job of any other schema is not an inferbench job. */
export function queueJobKind(schema: unknown): QueueJobKind | undefined {
  return typeof schema === 'string' ? kinds.get(schema) : undefined;
}

/** The kind of a job already accepted (its schema was checked): a schema nobody registered is a programming error. */
export function kindOfJob(job: QueueJob): QueueJobKind {
  const kind = kinds.get(job.schema);
  if (kind === undefined) throw new Error(`no queue job kind is registered for schema '${job.schema}'`);
  return kind;
}

/** The kind that replaced `schema`, a schema an older inferbench used, or undefined. */
export function kindFormerly(schema: unknown): QueueJobKind | undefined {
  return [...kinds.values()].find((k) => typeof schema === 'string' && (k.formerly ?? []).includes(schema));
}

/** Every registered schema, in registration order (named when a job's schema is none of them). */
export function queueJobSchemas(): string[] {
  return [...kinds.keys()];
}

/** A set of files the coordinator serves by content hash (a local model folder or dataset), which any kind's job may name. */
export interface FileManifest {
  /** sha256 over the sorted `path:sha256` lines: the folder's identity, and where a worker caches it. */
  readonly hash: string;
  /** Name of the folder or file as the user gave it (its basename), so rows keep their names. */
  readonly name: string;
  /** Each file relative to the folder (a single file: its own name). */
  readonly files: readonly { readonly path: string; readonly sha256: string; readonly size: number }[];
  /** `http://HOST:PORT` of the coordinator's read-only file server (`--serve-models`). */
  readonly server: string;
}

/** One path segment of a served file: never empty, `.`, `..`, or holding a separator. */
const SEGMENT = (s: string): boolean => s !== '.' && s !== '..' && !/[\\/\0]/u.test(s);
const FILE_NAME = { test: SEGMENT, rule: 'a plain file or folder name (no "/", "\\", "." or "..")' };
const RELATIVE_PATH = { test: (s: string) => s.split('/').every((p) => p !== '' && SEGMENT(p)), rule: 'a relative path of plain names joined by "/"' };
const SERVER = { test: (s: string) => /^https?:\/\/[\w.-]+(:\d{1,5})?$|^https?:\/\/\[[0-9a-fA-F:.]+\](:\d{1,5})?$/u.test(s), rule: 'http://HOST:PORT' };

/** At most this many files in one served folder, and bytes in all (a job cannot make a worker fill its disk without bound). */
const MAX_FILES = 10_000;
const MAX_FILE_BYTES = 64 * 1024 ** 3;

/** The check of a FileManifest field. */
export const fileManifest: Check = record({
  hash: text(64, SHA256),
  name: text(255, FILE_NAME),
  files: list(record({ path: text(1024, RELATIVE_PATH), sha256: text(64, SHA256), size: integer(0, MAX_FILE_BYTES) }), MAX_FILES),
  server: text(300, SERVER),
});
