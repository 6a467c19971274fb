/**
 * The classification scenario's queue job: one open group (model × engine
 * × threads, with its batch sizes and rounds) described as plain data, and
 * the checks of each of its fields. A job carries no code, no module path
 * and no shell command; the worker re-validates every field here, as the
 * CLI checks the same option (allow-listed kinds, Hub syntax, the CLI's
 * ranges), and refuses anything else with the reason, so a queue shared
 * with other software cannot make it run something it was not built to run.
 */
import { dtypeNames } from '../../core/dtypes.js';
import { describeError } from '../../core/errors.js';
import { boolean, integer, list, literal, map, NAME, nullable, problem, ranged, record, SHA256, tagged, text, type Check } from '../../core/job-checks.js';
import { isHubConfigName, isHubRepoId, isHubRevision } from '../../hub/hub-id.js';
import type { ArchitectureSpec } from '../../models/generated/arch-presets.js';
import { validateBertConfig, type BertLikeConfig } from '../../models/generated/bert-config.js';
import { fileManifest, registerQueueJob, type FileManifest, type QueueJob } from '../../core/queue-jobs.js';

/** The classify open group's schema; version 2 renamed it from `inferbench.load-group/1` when an engine's load became its open ("load" is the scenario). */
export const CLASSIFY_JOB_SCHEMA = 'inferbench.open-group/2';

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

export interface ClassifyQueueJob extends QueueJob {
  readonly schema: typeof CLASSIFY_JOB_SCHEMA;
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
}

const HUB_ID = { test: isHubRepoId, rule: 'a Hugging Face Hub id org/name (never a path)' };
const HUB_REVISION = { test: isHubRevision, rule: 'a branch, tag or commit name' };
const HUB_CONFIG = { test: isHubConfigName, rule: 'a Hub config or split name' };
const DTYPE = { test: (s: string) => dtypeNames().includes(s as never), rule: `one of ${dtypeNames().join(', ')}` };

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
  files: record({ kind: literal('files'), manifest: fileManifest }),
});

const dataset: Check = tagged({
  embedded: record({ kind: literal('embedded') }),
  hub: record({ kind: literal('hub'), id: text(193, HUB_ID) }),
  files: record({ kind: literal('files'), manifest: fileManifest }),
});

registerQueueJob<ClassifyQueueJob>({
  schema: CLASSIFY_JOB_SCHEMA,
  name: 'open-group',
  formerly: ['inferbench.load-group/1'],
  fields: {
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
  },
  engine: (job) => job.engine,
  summary: (job) => `${job.row} on ${job.engine}${job.threads === null ? '' : ` threads ${job.threads}`} at batch ${job.batchSizes.join(', ')}`,
});
