/**
 * Downloads a model repository's files from the Hugging Face Hub (or a
 * mirror at HF_ENDPOINT) into the huggingface_hub cache layout:
 * `models--org--name/blobs/<etag>`, linked from
 * `snapshots/<commit>/<path>`, with `refs/<revision>` naming the commit. The
 * snapshot folder is then an ordinary Hugging Face model folder that every
 * engine, transformers.js and Python tools read as is.
 */
import { rename, symlink, unlink, copyFile } from 'node:fs/promises';
import { dirname, join, relative } from 'node:path';
import { UserError } from '../core/errors.js';
import { isHubName, isHubRevision } from './hub-id.js';
import { terminalProgress, type DownloadProgress } from './download-progress.js';
import { cachedFileSize, makeHubFolder, readRef, repoCacheDir, snapshotPath, writeRef, writeStreamAtomic } from './hub-cache.js';
import { resolveHubEnv, type HubEnv } from './hub-env.js';
import { HubHttpError, hubFetch, hubFileMetadata, offlineError, type HubFetchOptions, type HubRepoRef } from './hub-fetch.js';

/** Files every text-classification repo must have. */
export const REQUIRED_REPO_FILES = ['config.json', 'tokenizer.json'] as const;
/** Fetched when present; a 404 is fine. */
export const OPTIONAL_REPO_FILES = ['tokenizer_config.json', 'special_tokens_map.json'] as const;

export interface ModelDownloadOptions {
  /** Branch, tag or commit; default `main`. */
  readonly revision?: string;
  /** ONNX graphs wanted, e.g. `onnx/model.onnx`, `onnx/model_q4.onnx`; each also brings its `_data` file when the repo has one. */
  readonly onnxFiles: readonly string[];
  /** When false, a missing ONNX file is left out (its row is skipped later) instead of failing. Default true. */
  readonly requireOnnx?: boolean;
  /** Overrides of HF_ENDPOINT, HF_TOKEN, the cache and offline mode; default from the environment. */
  readonly hub?: Partial<HubEnv>;
  readonly fetch?: HubFetchOptions;
  /** Progress of each file; default a bar on stderr when it is a terminal. */
  readonly progress?: DownloadProgress;
}

const COMMIT = /^[0-9a-f]{40}$/u;

/** The `resolve` URL of a file, as the Hub serves it. */
export function resolveUrl(env: HubEnv, id: string, revision: string, file: string): string {
  return `${env.endpoint}/${id}/resolve/${encodeURIComponent(revision)}/${file.split('/').map(encodeURIComponent).join('/')}`;
}

/** Links the snapshot path to its blob (relative, as huggingface_hub does); copies where links are not allowed. */
async function linkSnapshot(blob: string, target: string): Promise<void> {
  await makeHubFolder(dirname(target));
  const temp = `${target}.link-${process.pid}`;
  await unlink(temp).catch(() => undefined);
  try {
    await symlink(relative(dirname(target), blob), temp);
  } catch {
    await copyFile(blob, temp);
  }
  await rename(temp, target);
}

/**
 * Downloads one file to `dest` atomically, with progress. The request itself
 * is retried by hubFetch; a body cut short is retried here, and never kept
 * under the final name.
 */
async function downloadFile(env: HubEnv, request: { url: string; what: string; repo: HubRepoRef }, dest: string, size: number | null, options: ModelDownloadOptions, progress: DownloadProgress): Promise<void> {
  const attempts = Math.max(1, options.fetch?.retry?.attempts ?? 3);
  let last: unknown;
  for (let i = 0; i < attempts; i++) {
    const response = await hubFetch(env, request, options.fetch);
    const declared = response.headers.get('content-length');
    const expected = declared !== null && /^\d+$/u.test(declared) ? Number(declared) : size ?? undefined;
    progress.start(request.what, expected ?? null);
    const body = (response.body ?? []) as AsyncIterable<Uint8Array>;
    const counted = (async function* count() {
      for await (const chunk of body) {
        progress.advance(chunk.byteLength);
        yield chunk;
      }
    })();
    try {
      await writeStreamAtomic(dest, counted, expected);
      progress.finish(true);
      return;
    } catch (err) {
      progress.finish(false);
      last = err;
    }
  }
  throw new UserError(
    `Could not download ${request.what} of model "${request.repo.id}" from ${request.url} after ${attempts} attempts: ${last instanceof Error ? last.message : String(last)}`,
    'Run the command again (nothing partial was kept), or check the network and HF_ENDPOINT.',
  );
}

/** Where the files of one revision live offline: the commit it last resolved to. */
async function offlineSnapshot(env: HubEnv, id: string, revision: string): Promise<string> {
  const repoDir = repoCacheDir(env, 'model', id);
  const commit = COMMIT.test(revision) ? revision : await readRef(repoDir, revision);
  if (commit === null) throw offlineError(`model "${id}" at revision ${revision}`, repoDir);
  return commit;
}

/**
 * Makes the model's files available locally and returns the snapshot
 * folder. Online, each file's HEAD gives the commit and ETag (so an
 * up-to-date cached file is not fetched again); offline (HF_HUB_OFFLINE) only
 * the cache is read. Required files missing on the Hub (or a repo that does
 * not exist, or refuses access) fail with the Hub's status explained.
 */
export async function downloadModel(id: string, options: ModelDownloadOptions): Promise<string> {
  const env = resolveHubEnv(process.env, options.hub);
  const revision = options.revision ?? 'main';
  // Both name folders of the Hub cache (models--org--name/refs/<revision>): nothing that could climb out of it.
  if (!isHubName(id)) throw new UserError(`"${id}" is not a Hugging Face model id`, 'write it as org/name, e.g. Xenova/distilbert-base-uncased-finetuned-sst-2-english');
  if (!isHubRevision(revision)) throw new UserError(`revision "${revision}" is not a branch, tag or commit name`, 'pass --revision main, a tag, or a commit hash');
  const repo: HubRepoRef = { type: 'model', id };
  const repoDir = repoCacheDir(env, 'model', id);
  const progress = options.progress ?? terminalProgress();
  const requireOnnx = options.requireOnnx ?? true;
  const files: { path: string; required: boolean }[] = [
    ...REQUIRED_REPO_FILES.map((path) => ({ path, required: true })),
    ...OPTIONAL_REPO_FILES.map((path) => ({ path, required: false })),
    ...options.onnxFiles.flatMap((path) => [{ path, required: requireOnnx }, { path: `${path}_data`, required: false }]),
  ];

  if (env.offline) {
    const commit = await offlineSnapshot(env, id, revision);
    for (const f of files) {
      if (f.required && (await cachedFileSize(snapshotPath(repoDir, commit, f.path))) === null) {
        throw offlineError(`${f.path} of model "${id}" (revision ${revision})`, join(repoDir, 'snapshots', commit));
      }
    }
    return join(repoDir, 'snapshots', commit);
  }

  let commit: string | null = COMMIT.test(revision) ? revision : null;
  for (const f of files) {
    const url = resolveUrl(env, id, revision, f.path);
    const request = { url, what: f.path, repo };
    let meta;
    try {
      meta = await hubFileMetadata(env, request, options.fetch);
    } catch (err) {
      if (!f.required && err instanceof HubHttpError && err.status === 404) continue;
      throw err;
    }
    commit ??= meta.commit;
    if (commit === null) {
      throw new UserError(`${env.endpoint} did not say which commit ${revision} of model "${id}" is (no X-Repo-Commit header)`, `Check HF_ENDPOINT (now ${env.endpoint}): it must be a Hugging Face Hub or a mirror of it.`);
    }
    const target = snapshotPath(repoDir, commit, f.path);
    const have = await cachedFileSize(target);
    if (have !== null && (meta.size === null || have === meta.size)) continue;
    if (meta.etag && /^[\w.-]+$/u.test(meta.etag)) {
      const blob = join(repoDir, 'blobs', meta.etag);
      const blobSize = await cachedFileSize(blob);
      if (blobSize === null || (meta.size !== null && blobSize !== meta.size)) await downloadFile(env, { ...request, url: meta.resolvedUrl }, blob, meta.size, options, progress);
      await linkSnapshot(blob, target);
    } else {
      await downloadFile(env, { ...request, url: meta.resolvedUrl }, target, meta.size, options, progress);
    }
  }
  if (commit === null) throw new Error(`no file of model "${id}" was resolved`);
  if (commit !== revision) await writeRef(repoDir, revision, commit);
  return join(repoDir, 'snapshots', commit);
}
