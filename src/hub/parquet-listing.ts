import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { UserError } from '../core/errors.js';
import { lookupName } from '../core/name-lookup.js';
import { repoCacheDir, writeFileAtomic } from './hub-cache.js';
import type { HubEnv } from './hub-env.js';
import { HubHttpError, hubFetchJson, offlineError, type HubFetchOptions, type HubRepoRef } from './hub-fetch.js';

/** Split `load_dataset` reads when none is named. */
export const DEFAULT_SPLIT = 'train';

/** Config the Hub's converter names a dataset's only subset. */
const DEFAULT_CONFIG = 'default';

/** The Parquet shards of one config and split, in shard order. */
export interface ParquetSplit {
  readonly config: string;
  readonly split: string;
  /** Shard URLs on `env.endpoint` (e.g. `/api/datasets/<id>/parquet/<config>/<split>/0.parquet`). */
  readonly urls: readonly string[];
}

/** `{ config: { split: [url…] } }`, the answer of `/api/datasets/<id>/parquet`. */
type Listing = Record<string, Record<string, string[]>>;

/** Folder inside the repository's cache folder where inferbench keeps what huggingface_hub has no place for. */
export function inferbenchCacheDir(env: HubEnv, id: string): string {
  return join(repoCacheDir(env, 'dataset', id), 'inferbench');
}

const seg = (s: string): string => encodeURIComponent(s);

function listingCachePath(env: HubEnv, id: string, config?: string, split?: string): string {
  const dir = inferbenchCacheDir(env, id);
  return config === undefined ? join(dir, 'parquet-listing.json') : join(dir, 'parquet-listing', seg(config), `${seg(split ?? '')}.json`);
}

async function readCachedJson(path: string): Promise<unknown> {
  try {
    return JSON.parse(await readFile(path, 'utf8'));
  } catch {
    return undefined;
  }
}

function checkListing(value: unknown, url: string): Listing {
  const ok =
    typeof value === 'object' && value !== null && !Array.isArray(value) &&
    Object.values(value).every((splits) => typeof splits === 'object' && splits !== null && Object.values(splits).every((u) => Array.isArray(u) && u.every((x) => typeof x === 'string')));
  if (!ok) throw new UserError(`Unexpected answer from ${url}: not a Parquet listing`, 'Check HF_ENDPOINT: it must point at a Hugging Face Hub or a mirror of it.');
  return value as Listing;
}

function checkUrls(value: unknown, url: string): string[] {
  if (!Array.isArray(value) || !value.every((u) => typeof u === 'string')) {
    throw new UserError(`Unexpected answer from ${url}: not a list of Parquet files`, 'Check HF_ENDPOINT: it must point at a Hugging Face Hub or a mirror of it.');
  }
  return value as string[];
}

/**
 * Shard URLs as the Hub returned them may name huggingface.co even when
 * HF_ENDPOINT is a mirror; they are moved onto the configured endpoint so
 * every request goes where the user pointed.
 */
function onEndpoint(env: HubEnv, url: string): string {
  const parsed = new URL(url, env.endpoint);
  if (parsed.origin === new URL(env.endpoint).origin) return parsed.toString();
  return `${env.endpoint}${parsed.pathname}${parsed.search}`;
}

/** Shared state of one lookup: where to ask, and whether the network may be used. */
interface Lookup {
  readonly env: HubEnv;
  readonly id: string;
  readonly repo: HubRepoRef;
  readonly fetchOptions: HubFetchOptions;
}

/** The full listing (all configs and splits), from the Hub or, offline, from the cache. */
async function fullListing(l: Lookup): Promise<Listing> {
  const url = `${l.env.endpoint}/api/datasets/${l.id}/parquet`;
  const cachePath = listingCachePath(l.env, l.id);
  if (l.env.offline) {
    const cached = await readCachedJson(cachePath);
    if (cached === undefined) throw offlineError(`the Parquet listing of dataset "${l.id}"`, cachePath);
    return checkListing(cached, cachePath);
  }
  const listing = checkListing(await hubFetchJson(l.env, { url, what: 'the Parquet file listing', repo: l.repo }, l.fetchOptions), url);
  await writeFileAtomic(cachePath, JSON.stringify(listing)).catch(() => undefined);
  return listing;
}

function listNames(names: readonly string[]): string {
  return names.length > 0 ? names.map((n) => `"${n}"`).join(', ') : '(none)';
}

function unknownConfig(id: string, config: string, listing: Listing): UserError {
  return new UserError(
    `Dataset "${id}" has no config "${config}"; its configs are: ${listNames(Object.keys(listing))}`,
    'Pass one of the listed configs with --dataset-config (or `config` in code).',
  );
}

function unknownSplit(id: string, config: string, split: string, splits: readonly string[]): UserError {
  return new UserError(
    `Dataset "${id}" (config "${config}") has no split "${split}"; its splits are: ${listNames(splits)}`,
    'Pass one of the listed splits with --split (or `split` in code).',
  );
}

/** Picks the config when the user named none: the only one, else `default`, else ask. */
function chooseConfig(id: string, listing: Listing): string {
  const configs = Object.keys(listing);
  if (configs.length === 1) return configs[0] as string;
  if (configs.includes(DEFAULT_CONFIG)) return DEFAULT_CONFIG;
  throw new UserError(
    configs.length === 0 ? `Dataset "${id}" has no Parquet files on the Hub yet` : `Dataset "${id}" has several configs; name one of: ${listNames(configs)}`,
    configs.length === 0
      ? 'The Hub converts datasets to Parquet after upload; try again later, or download the files and pass their folder.'
      : 'Pass --dataset-config NAME (or `config` in code).',
  );
}

function splitFrom(id: string, config: string, split: string, listing: Listing): ParquetSplit {
  const splits = lookupName(listing, config);
  if (splits === undefined) throw unknownConfig(id, config, listing);
  const urls = lookupName(splits, split);
  if (urls === undefined) throw unknownSplit(id, config, split, Object.keys(splits));
  return { config, split, urls };
}

/**
 * Finds the Parquet shards of a Hub dataset's config and split through the
 * Hub's Parquet listing (`/api/datasets/<id>/parquet[/<config>/<split>]`),
 * which points at the `refs/convert/parquet` files. An unknown config or
 * split is an error listing those that exist. Listings are cached under the
 * dataset's cache folder, so HF_HUB_OFFLINE=1 works for a split listed before.
 */
export async function findParquetSplit(
  env: HubEnv,
  id: string,
  wanted: { config?: string; split?: string },
  fetchOptions: HubFetchOptions = {},
): Promise<ParquetSplit> {
  const l: Lookup = { env, id, repo: { type: 'dataset', id }, fetchOptions };
  const split = wanted.split ?? DEFAULT_SPLIT;
  let found: ParquetSplit;
  if (wanted.config === undefined) {
    const listing = await fullListing(l);
    found = splitFrom(id, chooseConfig(id, listing), split, listing);
  } else {
    found = await namedSplit(l, wanted.config, split);
  }
  if (found.urls.length === 0) {
    throw new UserError(`Dataset "${id}" (config "${found.config}", split "${found.split}") has no Parquet files`, 'Choose another split with --split.');
  }
  return { ...found, urls: found.urls.map((u) => onEndpoint(env, u)) };
}

/** A named config and split: the per-split listing, falling back to the full one to explain a 404. */
async function namedSplit(l: Lookup, config: string, split: string): Promise<ParquetSplit> {
  const cachePath = listingCachePath(l.env, l.id, config, split);
  if (l.env.offline) {
    const cached = await readCachedJson(cachePath);
    if (cached !== undefined) return { config, split, urls: checkUrls(cached, cachePath) };
    const full = await readCachedJson(listingCachePath(l.env, l.id));
    if (full === undefined) throw offlineError(`the Parquet listing of dataset "${l.id}" (config "${config}", split "${split}")`, cachePath);
    return splitFrom(l.id, config, split, checkListing(full, listingCachePath(l.env, l.id)));
  }
  const url = `${l.env.endpoint}/api/datasets/${l.id}/parquet/${seg(config)}/${seg(split)}`;
  try {
    const urls = checkUrls(await hubFetchJson(l.env, { url, what: `the Parquet files of config "${config}", split "${split}"`, repo: l.repo }, l.fetchOptions), url);
    await writeFileAtomic(cachePath, JSON.stringify(urls)).catch(() => undefined);
    return { config, split, urls };
  } catch (err) {
    if (!(err instanceof HubHttpError) || err.status !== 404) throw err;
    // The dataset may exist without this config or split: the full listing tells which, or 404s itself with the dataset's name.
    const listing = await fullListing(l);
    splitFrom(l.id, config, split, listing);
    throw err;
  }
}
