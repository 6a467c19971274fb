import { UserError } from '../src/core/errors.js';
import { resolveHubEnv, type HubEnv } from '../src/hub/hub-env.js';
import { isHubName, isHubRepoId } from '../src/hub/hub-id.js';
import type { HubFetchOptions } from '../src/hub/hub-fetch.js';
import { Dataset } from './dataset.js';
import { readParquetBatches, readParquetColumns } from './parquet-reader.js';
import { rowsOfBatches, type RowBatch } from './row-batches.js';
import { findParquetSplit } from '../src/hub/parquet-listing.js';
import { remoteParquetSource } from './remote-parquet.js';

/** Prefix that marks a source as a Hub dataset even when a local path of that name exists. */
export const HUB_PREFIX = 'hf://datasets/';

/** Extensions of data files: `org/data.csv` is a missing local file, not a Hub id. */
const FILE_EXTENSIONS = /\.(parquet|arrow|feather|jsonl|ndjson|json|csv|tsv|txt)$/iu;

/**
 * Whether a source that is not a local path names a Hub dataset: `org/name`
 * as on the Hub (or `hf://datasets/org/name`). Data-file extensions are left
 * to the local "not found" error, since `data/train.csv` is a path typo.
 */
export function looksLikeHubId(source: string): boolean {
  if (source.startsWith(HUB_PREFIX)) return true;
  return isHubRepoId(source) && !FILE_EXTENSIONS.test(source);
}

/** Settings of a Hub dataset: which config and split, and the Hub to ask. */
export interface HubDatasetOptions {
  /** Config (subset); default: the only one, else `default`. */
  readonly config?: string;
  /** Split; default `train`. */
  readonly split?: string;
  /** Overrides of HF_ENDPOINT, HF_TOKEN, the cache folder and offline mode; default from the environment. */
  readonly hub?: Partial<HubEnv>;
  /** Retry policy and fetch, for tests and embedders. */
  readonly fetch?: HubFetchOptions;
}

/**
 * Opens a Hub dataset for streaming: finds the Parquet shards of the config
 * and split (failing here, before any engine opens, on an unknown dataset,
 * config or split), and returns a Dataset that streams them row group by row
 * group over range requests. Nothing else is downloaded until rows are read;
 * a pass that stops early (`take`) reads no further groups or shards.
 */
export async function openHubDataset(source: string, options: HubDatasetOptions = {}): Promise<Dataset> {
  const id = source.startsWith(HUB_PREFIX) ? source.slice(HUB_PREFIX.length).replace(/\/+$/u, '') : source;
  if (!isHubName(id)) {
    throw new UserError(`"${source}" is not a Hugging Face dataset id`, 'Write it as org/name, e.g. stanfordnlp/imdb, or pass a local path.');
  }
  const env = resolveHubEnv(process.env, options.hub);
  const fetchOptions = options.fetch ?? {};
  const found = await findParquetSplit(env, id, { config: options.config, split: options.split }, fetchOptions);
  const sources = found.urls.map((url, index) =>
    remoteParquetSource({ env, id, config: found.config, split: found.split, index, url, fetchOptions }),
  );
  const first = sources[0];
  if (first === undefined) throw new Error('findParquetSplit returned no shard');
  return new Dataset(
    `${id} (${found.config}/${found.split})`,
    () =>
      rowsOfBatches(async function* hubBatches(): AsyncGenerator<RowBatch> {
        for (const shard of sources) yield* readParquetBatches(shard);
      }),
    () => readParquetColumns(first),
  );
}
