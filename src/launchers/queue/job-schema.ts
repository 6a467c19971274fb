/**
 * The one kind of job an inferbench worker runs: a load group (model ×
 * engine × threads, with its batch sizes and rounds) described as plain
 * data. A job carries no code, no module path and no shell command; the
 * worker re-validates every field here and refuses anything else with the
 * reason, so a queue shared with other software cannot make it run
 * something it was not built to run.
 */
import { dtypeNames } from '../../core/dtypes.js';
import { describeError } from '../../core/errors.js';
import { isHubConfigName, isHubRepoId, isHubRevision } from '../../hub/hub-id.js';
import type { ArchitectureSpec } from '../../models/generated/arch-presets.js';
import { validateBertConfig, type BertLikeConfig } from '../../models/generated/bert-config.js';
import { boolean, integer, isPlainRecord, list, literal, map, nullable, problem, ranged, record, tagged, text, type Check } from './job-checks.js';

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

/** Names a worker, a run or an engine is made of: letters, digits, `.`, `_`, `-`. */
const NAME = { test: (s: string) => /^[\w.-]+$/u.test(s), rule: 'letters, digits, ".", "_" or "-"' };
const SHA256 = { test: (s: string) => /^[0-9a-f]{64}$/u.test(s), rule: 'a sha256 in hex' };
/** One path segment of a served file: never empty, `.`, `..`, or holding a separator. */
const SEGMENT = (s: string): boolean => s !== '.' && s !== '..' && !/[\\/\0]/u.test(s);
const FILE_NAME = { test: SEGMENT, rule: 'a plain file or folder name (no "/", "\\", "." or "..")' };
const RELATIVE_PATH = { test: (s: string) => s.split('/').every((p) => p !== '' && SEGMENT(p)), rule: 'a relative path of plain names joined by "/"' };
const SERVER = { test: (s: string) => /^https?:\/\/[\w.-]+(:\d{1,5})?$|^https?:\/\/\[[0-9a-fA-F:.]+\](:\d{1,5})?$/u.test(s), rule: 'http://HOST:PORT' };
const HUB_ID = { test: isHubRepoId, rule: 'a Hugging Face Hub id org/name (never a path)' };
const HUB_REVISION = { test: isHubRevision, rule: 'a branch, tag or commit name' };
const HUB_CONFIG = { test: isHubConfigName, rule: 'a Hub config or split name' };
const DTYPE = { test: (s: string) => dtypeNames().includes(s as never), rule: `one of ${dtypeNames().join(', ')}` };

/** At most this many files in one served folder, and bytes in all (a job cannot make a worker fill its disk without bound). */
const MAX_FILES = 10_000;
const MAX_FILE_BYTES = 64 * 1024 ** 3;

const manifest: Check = record({
  hash: text(64, SHA256),
  name: text(255, FILE_NAME),
  files: list(record({ path: text(1024, RELATIVE_PATH), sha256: text(64, SHA256), size: integer(0, MAX_FILE_BYTES) }), MAX_FILES),
  server: text(300, SERVER),
});

/** Largest generated architecture a job may ask for (weights, fp32): bert-large is 335 M. */
const MAX_PARAMETERS = 1e9;

const bertConfig: Check = (v, at) => {
  const shape = record({
    vocabSize: integer(1, 1_000_000), hiddenSize: integer(1, 16_384), numLayers: integer(1, 256), numHeads: integer(1, 1024),
    intermediateSize: integer(1, 65_536), maxPositions: integer(1, 65_536), typeVocabSize: integer(1, 64), numLabels: integer(1, 1000),
    id2label: map(text(10, { test: (k) => /^\d+$/u.test(k), rule: 'a class index' }), text(256), 1000),
    layerNormEps: (x, a) => (typeof x === 'number' && x > 0 && x < 1 ? null : problem(a, 'must be a small positive number')),
    seed: integer(0, 0xffffffff),
  })(v, at);
  if (shape) return shape;
  const c = v as unknown as BertLikeConfig;
  const perLayer = 4 * c.hiddenSize * c.hiddenSize + 2 * c.hiddenSize * c.intermediateSize;
  if ((c.vocabSize + c.maxPositions + c.typeVocabSize) * c.hiddenSize + c.numLayers * perLayer > MAX_PARAMETERS) {
    return problem(at, `asks for more than ${MAX_PARAMETERS / 1e9} billion weights`);
  }
  try {
    validateBertConfig(c);
  } catch (err) {
    return problem(at, `is not a valid config: ${describeError(err)}`);
  }
  return null;
};

const model: Check = tagged({
  default: record({ kind: literal('default') }),
  hub: record({ kind: literal('hub'), id: text(193, HUB_ID), revision: nullable(text(256, HUB_REVISION)) }),
  architecture: record({ kind: literal('architecture'), spec: record({ name: text(256), config: bertConfig, padVocabulary: boolean }) }),
  files: record({ kind: literal('files'), manifest }),
});

const dataset: Check = tagged({
  embedded: record({ kind: literal('embedded') }),
  hub: record({ kind: literal('hub'), id: text(193, HUB_ID) }),
  files: record({ kind: literal('files'), manifest }),
});

/** Every field of a job, checked as the CLI checks the same option: allow-listed kinds, Hub syntax, the CLI's ranges. */
const JOB: Check = record({
  schema: literal(JOB_SCHEMA),
  runId: text(128, NAME),
  row: text(256),
  model,
  dtype: nullable(text(16, DTYPE)),
  modelHash: text(64, SHA256),
  dataset,
  datasetConfig: nullable(text(128, HUB_CONFIG)),
  split: nullable(text(128, HUB_CONFIG)),
  rowsHash: text(64, SHA256),
  textColumn: nullable(text(256)),
  labelColumn: nullable(text(256)),
  limit: nullable(ranged('limit')),
  sequenceLength: nullable(ranged('sequenceLengths')),
  engine: text(64, NAME),
  threads: nullable(ranged('threads')),
  batchSizes: list(ranged('batchSizes'), 64),
  rounds: ranged('rounds'),
  warmupBatches: ranged('warmupBatches'),
  stop: record({ minTimeMs: ranged('stop.minTimeMs'), minBatches: ranged('stop.minBatches'), maxTimeMs: ranged('stop.maxTimeMs') }),
  maxCv: ranged('maxCv'),
  parity: record({ reference: nullable(text(64, NAME)), tolerance: ranged('parity.tolerance') }),
  workers: nullable(list(text(64, NAME), 1000)),
  refused: map(text(64, NAME), text(8192), 1000),
});

/**
 * Checks a job's data against the schema: the job, or the first reason it
 * is not one, naming the field (`field "model.manifest.name" must be …`)
 * and never echoing its value.
 */
export function parseQueueJob(data: unknown): { readonly ok: true; readonly job: QueueJob } | { readonly ok: false; readonly reason: string } {
  if (!isPlainRecord(data)) return { ok: false, reason: 'job data is not an object' };
  if (data['schema'] !== JOB_SCHEMA) return { ok: false, reason: `job schema is not ${JOB_SCHEMA}` };
  const reason = JOB(data, '');
  return reason === null ? { ok: true, job: data as unknown as QueueJob } : { ok: false, reason };
}

/** Job id: the run id and the group's position, so a job re-offered after a worker died is still one job, counted once. */
export function queueJobId(runId: string, index: number): string {
  return `${runId}.g${index}`;
}
