import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { AsyncBuffer } from 'hyparquet';
import { UserError } from '../src/core/errors.js';
import { cachedFileSize, repoCacheDir, snapshotPath, writeFileAtomic, writeRef } from '../src/hub/hub-cache.js';
import type { HubEnv } from '../src/hub/hub-env.js';
import { hubFetchBytes, hubFileMetadata, offlineError, type HubFetchOptions, type HubRepoRef } from '../src/hub/hub-fetch.js';
import { hyparquet, type ParquetSource } from './parquet-reader.js';
import { inferbenchCacheDir } from '../src/hub/parquet-listing.js';

/**
 * Footer bytes fetched first. hyparquet's default (512 KiB) would download
 * whole small shards before a single row is asked for; a larger footer costs
 * one more request.
 */
const REMOTE_FOOTER_BYTES = 64 * 1024;

/** What inferbench remembers about one shard, so offline runs can find its bytes. */
interface ShardInfo {
  /** URL range requests go to (the `resolve` URL when the Hub redirected to it). */
  readonly url: string;
  readonly size: number;
  readonly etag: string | null;
  readonly commit: string | null;
  /** Revision and path in the repository, parsed from the `resolve` URL. */
  readonly revision: string | null;
  readonly repoPath: string | null;
}

/** One shard of a Hub split: where it is listed, and how to name it in messages. */
export interface RemoteShard {
  readonly env: HubEnv;
  readonly id: string;
  readonly config: string;
  readonly split: string;
  readonly index: number;
  readonly url: string;
  readonly fetchOptions: HubFetchOptions;
}

function describe(shard: RemoteShard): string {
  return `shard ${shard.index} of dataset "${shard.id}" (config "${shard.config}", split "${shard.split}")`;
}

/** `/datasets/<id>/resolve/<revision>/<path>` → revision and path, when the URL has that form. */
function parseResolveUrl(url: string, id: string): { revision: string; repoPath: string } | null {
  const prefix = `/datasets/${id}/resolve/`;
  const path = new URL(url).pathname;
  if (!path.startsWith(prefix)) return null;
  const [revision, ...rest] = path.slice(prefix.length).split('/');
  if (revision === undefined || rest.length === 0) return null;
  return { revision: decodeURIComponent(revision), repoPath: rest.map(decodeURIComponent).join('/') };
}

/** Cache file for the shard facts; keyed by config, split and index, as the listing names shards. */
function infoPath(shard: RemoteShard): string {
  return join(inferbenchCacheDir(shard.env, shard.id), 'parquet-files', encodeURIComponent(shard.config), encodeURIComponent(shard.split), `${shard.index}.json`);
}

/** HEADs the shard (online) or reads what an earlier run learnt (offline). */
async function shardInfo(shard: RemoteShard): Promise<ShardInfo> {
  const cachePath = infoPath(shard);
  if (shard.env.offline) {
    try {
      return JSON.parse(await readFile(cachePath, 'utf8')) as ShardInfo;
    } catch {
      throw offlineError(`${describe(shard)}`, cachePath);
    }
  }
  const repo: HubRepoRef = { type: 'dataset', id: shard.id };
  const meta = await hubFileMetadata(shard.env, { url: shard.url, what: describe(shard), repo }, shard.fetchOptions);
  if (meta.size === null) {
    throw new UserError(`The Hub did not report the size of ${describe(shard)} (${shard.url})`, 'Check HF_ENDPOINT; range requests need the file size.');
  }
  const resolved = parseResolveUrl(meta.resolvedUrl, shard.id);
  const info: ShardInfo = {
    url: meta.resolvedUrl,
    size: meta.size,
    etag: meta.etag,
    commit: meta.commit,
    revision: resolved?.revision ?? null,
    repoPath: resolved?.repoPath ?? null,
  };
  await writeFileAtomic(cachePath, JSON.stringify(info)).catch(() => undefined);
  if (info.commit && info.revision && info.revision !== info.commit) {
    await writeRef(repoCacheDir(shard.env, 'dataset', shard.id), info.revision, info.commit).catch(() => undefined);
  }
  return info;
}

/** A complete copy in the huggingface_hub snapshot folder (e.g. from `huggingface-cli download`), if there is one. */
async function snapshotCopy(shard: RemoteShard, info: ShardInfo): Promise<string | null> {
  if (!info.commit || !info.repoPath) return null;
  let path: string;
  try {
    path = snapshotPath(repoCacheDir(shard.env, 'dataset', shard.id), info.commit, info.repoPath);
  } catch {
    return null;
  }
  return (await cachedFileSize(path)) === info.size ? path : null;
}

const RANGE_FILE = /^(\d+)-(\d+)$/u;

/**
 * An AsyncBuffer over HTTP range requests with a disk cache of the ranges
 * read. Each range hyparquet asks for (the footer, a row group's column
 * chunks) is fetched once, written atomically to
 * `inferbench/ranges/<etag>/<start>-<end>` in the dataset's cache folder and
 * served from there on later passes and later runs, including offline ones.
 * Nothing outside the ranges read is downloaded.
 */
function rangeBuffer(shard: RemoteShard, info: ShardInfo): AsyncBuffer {
  const dir = info.etag ? join(inferbenchCacheDir(shard.env, shard.id), 'ranges', info.etag.replace(/[^\w.-]/gu, '_')) : null;
  let known: Promise<{ start: number; end: number }[]> | undefined;
  const cachedRanges = (): Promise<{ start: number; end: number }[]> => {
    known ??= dir === null
      ? Promise.resolve([])
      : readdir(dir).then(
          (names) => names.flatMap((n) => {
            const m = RANGE_FILE.exec(n);
            return m ? [{ start: Number(m[1]), end: Number(m[2]) }] : [];
          }),
          () => [],
        );
    return known;
  };
  // Buffer#slice shares memory, so views are copied through their ArrayBuffer.
  const toArrayBuffer = (bytes: Uint8Array): ArrayBuffer =>
    (bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength ? bytes.buffer : bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength)) as ArrayBuffer;

  return {
    byteLength: info.size,
    async slice(start: number, end?: number): Promise<ArrayBuffer> {
      const stop = end ?? info.size;
      if (stop <= start) return new ArrayBuffer(0);
      const hit = (await cachedRanges()).find((r) => r.start <= start && r.end >= stop);
      if (hit && dir) {
        const bytes = await readFile(join(dir, `${hit.start}-${hit.end}`)).catch(() => null);
        if (bytes && bytes.byteLength === hit.end - hit.start) return toArrayBuffer(bytes.subarray(start - hit.start, stop - hit.start));
      }
      if (shard.env.offline) {
        throw offlineError(`bytes ${start} to ${stop} of ${describe(shard)}`, dir ?? inferbenchCacheDir(shard.env, shard.id));
      }
      const bytes = await hubFetchBytes(
        shard.env,
        { url: info.url, what: `bytes ${start} to ${stop} of ${describe(shard)}`, repo: { type: 'dataset', id: shard.id } },
        { ...shard.fetchOptions, range: { start, end: stop, fileSize: info.size } },
      );
      if (dir) {
        await writeFileAtomic(join(dir, `${start}-${stop}`), bytes).then(
          async () => (await cachedRanges()).push({ start, end: stop }),
          () => undefined,
        );
      }
      return toArrayBuffer(bytes);
    },
  };
}

/**
 * A ParquetSource for one Hub shard. Opening it HEADs the shard once (its
 * size, ETag and commit), then reads a complete snapshot copy when the
 * huggingface_hub cache has one, and otherwise streams the byte ranges
 * hyparquet asks for.
 */
export function remoteParquetSource(shard: RemoteShard): ParquetSource {
  let info: Promise<ShardInfo> | undefined;
  return {
    name: `${shard.url} (${describe(shard)})`,
    footerFetchBytes: REMOTE_FOOTER_BYTES,
    async open(): Promise<AsyncBuffer> {
      info ??= shardInfo(shard);
      let resolved: ShardInfo;
      try {
        resolved = await info;
      } catch (err) {
        info = undefined;
        throw err;
      }
      const local = await snapshotCopy(shard, resolved);
      return local ? (await hyparquet()).asyncBufferFromFile(local) : rangeBuffer(shard, resolved);
    },
  };
}
