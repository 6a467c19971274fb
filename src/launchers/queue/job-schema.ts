/**
 * The one kind of job an inferbench worker runs: a load group (model ×
 * engine × threads, with its batch sizes and rounds) described as plain
 * data. A job carries no code, no module path and no shell command; the
 * worker re-validates every field here and refuses anything else with the
 * reason, so a queue shared with other software cannot make it run
 * something it was not built to run.
 */
import type { ArchitectureSpec } from '../../models/generated/arch-presets.js';

export const JOB_SCHEMA = 'inferbench.load-group/1';

/** A set of files the coordinator serves by content hash (a local model folder or dataset). */
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

/** Where a worker gets the model of a job. */
export type ModelRequest =
  | { readonly kind: 'default' }
  | { readonly kind: 'hub'; readonly id: string; readonly revision: string | null }
  | { readonly kind: 'architecture'; readonly spec: ArchitectureSpec }
  | { readonly kind: 'files'; readonly manifest: FileManifest };

/** Where a worker gets the rows. */
export type DatasetRequest =
  | { readonly kind: 'embedded' }
  | { readonly kind: 'hub'; readonly id: string }
  | { readonly kind: 'files'; readonly manifest: FileManifest };

export interface QueueJob {
  readonly schema: typeof JOB_SCHEMA;
  /** The coordinator's run id: results of another run's jobs are never mixed in. */
  readonly runId: string;
  /** Row name the coordinator recorded (cells are reported under it). */
  readonly row: string;
  readonly model: ModelRequest;
  /** `--dtype` of this row; null runs `onnx/model.onnx`. */
  readonly dtype: string | null;
  /** sha256 of the graph, config and tokenizer files as the coordinator planned them; a worker refuses on mismatch. */
  readonly modelHash: string;
  readonly dataset: DatasetRequest;
  readonly datasetConfig: string | null;
  readonly split: string | null;
  /** sha256 of the rows every cell streams (after `--limit`): every worker must use the same rows. */
  readonly rowsHash: string;
  readonly textColumn: string | null;
  readonly labelColumn: string | null;
  readonly limit: number | null;
  readonly sequenceLength: number | null;
  readonly engine: string;
  readonly threads: number | null;
  readonly batchSizes: readonly number[];
  readonly rounds: number;
  readonly warmupBatches: number;
  readonly stop: { readonly minTimeMs: number; readonly minBatches: number; readonly maxTimeMs: number };
  readonly maxCv: number;
  readonly parity: { readonly reference: string | null; readonly tolerance: number };
  /** The workers that may run it (`--on-each-worker`: one; `--workers`: those named); null: any worker. */
  readonly workers: readonly string[] | null;
  /** Workers that could not run it, with why (filled by the workers as they refuse). */
  readonly refused: Readonly<Record<string, string>>;
}

type Check = (v: unknown) => boolean;
const isString: Check = (v) => typeof v === 'string' && v.length > 0 && v.length < 4096;
const isNullableString: Check = (v) => v === null || isString(v);
const isCount: Check = (v) => typeof v === 'number' && Number.isInteger(v) && v >= 0;
const isPositive: Check = (v) => typeof v === 'number' && Number.isInteger(v) && v > 0;
const isFinite: Check = (v) => typeof v === 'number' && Number.isFinite(v) && v >= 0;
const isNullablePositive: Check = (v) => v === null || isPositive(v);
const isHash: Check = (v) => typeof v === 'string' && /^[0-9a-f]{64}$/.test(v);
const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function manifestOk(v: unknown): boolean {
  if (!isRecord(v) || !isHash(v['hash']) || !isString(v['name']) || !isString(v['server']) || !Array.isArray(v['files'])) return false;
  if (!/^https?:\/\/[^/]+$/.test(v['server'] as string)) return false;
  return (v['files'] as unknown[]).every(
    (f) => isRecord(f) && isString(f['path']) && !(f['path'] as string).split(/[\\/]/).includes('..') && !(f['path'] as string).startsWith('/') && isHash(f['sha256']) && isCount(f['size']),
  );
}

function modelOk(v: unknown): boolean {
  if (!isRecord(v)) return false;
  switch (v['kind']) {
    case 'default':
      return true;
    case 'hub':
      return isString(v['id']) && isNullableString(v['revision']);
    case 'architecture':
      return isRecord(v['spec']) && isString(v['spec']['name']) && isRecord(v['spec']['config']);
    case 'files':
      return manifestOk(v['manifest']);
    default:
      return false;
  }
}

function datasetOk(v: unknown): boolean {
  if (!isRecord(v)) return false;
  if (v['kind'] === 'embedded') return true;
  if (v['kind'] === 'hub') return isString(v['id']);
  return v['kind'] === 'files' && manifestOk(v['manifest']);
}

const FIELDS: Readonly<Record<keyof QueueJob, Check>> = {
  schema: (v) => v === JOB_SCHEMA,
  runId: (v) => isString(v) && /^[\w.-]+$/.test(v as string),
  row: isString,
  model: modelOk,
  dtype: isNullableString,
  modelHash: isHash,
  dataset: datasetOk,
  datasetConfig: isNullableString,
  split: isNullableString,
  rowsHash: isHash,
  textColumn: isNullableString,
  labelColumn: isNullableString,
  limit: isNullablePositive,
  sequenceLength: isNullablePositive,
  engine: (v) => isString(v) && /^[\w.-]+$/.test(v as string),
  threads: isNullablePositive,
  batchSizes: (v) => Array.isArray(v) && v.length > 0 && v.every(isPositive),
  rounds: isPositive,
  warmupBatches: isCount,
  stop: (v) => isRecord(v) && isFinite(v['minTimeMs']) && isCount(v['minBatches']) && isFinite(v['maxTimeMs']),
  maxCv: isFinite,
  parity: (v) => isRecord(v) && isNullableString(v['reference']) && isFinite(v['tolerance']),
  workers: (v) => v === null || (Array.isArray(v) && v.length > 0 && v.every((n) => isString(n))),
  refused: (v) => isRecord(v) && Object.values(v).every((r) => typeof r === 'string'),
};

/** Checks a job's data against the schema: the job, or the first reason it is not one. */
export function parseQueueJob(data: unknown): { readonly ok: true; readonly job: QueueJob } | { readonly ok: false; readonly reason: string } {
  if (!isRecord(data)) return { ok: false, reason: 'job data is not an object' };
  if (data['schema'] !== JOB_SCHEMA) return { ok: false, reason: `job schema is ${JSON.stringify(data['schema'] ?? null)}, not ${JOB_SCHEMA}` };
  for (const [field, check] of Object.entries(FIELDS)) {
    if (!check(data[field])) return { ok: false, reason: `field "${field}" is missing or malformed` };
  }
  const extra = Object.keys(data).filter((k) => !(k in FIELDS));
  if (extra.length > 0) return { ok: false, reason: `unknown field${extra.length === 1 ? '' : 's'} ${extra.map((k) => `"${k}"`).join(', ')}` };
  return { ok: true, job: data as unknown as QueueJob };
}

/** Job id: the run id and the group's position, so a job re-offered after a worker died is still one job, counted once. */
export function queueJobId(runId: string, index: number): string {
  return `${runId}.g${index}`;
}
