import { UserError } from '../core/errors.js';
import { inferbenchVersion } from '../core/package-info.js';
import type { RepoType } from './hub-cache.js';
import type { HubEnv } from './hub-env.js';

/** The repository a request belongs to, so errors can name it. */
export interface HubRepoRef {
  readonly type: RepoType;
  readonly id: string;
}

/** One request to the Hub (or a mirror), described for error messages. */
export interface HubRequest {
  readonly url: string;
  readonly method?: 'GET' | 'HEAD';
  readonly headers?: Readonly<Record<string, string>>;
  /** `manual` returns 3xx responses instead of following them (to read the headers of each hop). */
  readonly redirect?: 'follow' | 'manual';
  /** What is fetched, as a noun phrase: "the Parquet file list", "config.json". */
  readonly what: string;
  readonly repo?: HubRepoRef;
}

/**
 * How transient failures (connection errors, timeouts, HTTP 429 and 5xx,
 * bodies cut short) are retried: `attempts` tries in all, waiting
 * `baseDelayMs`, then twice as long each time up to `maxDelayMs`.
 */
export interface RetryPolicy {
  readonly attempts: number;
  readonly baseDelayMs: number;
  readonly maxDelayMs: number;
  /** Longest wait for response headers, and for each chunk of a body, before the attempt counts as failed. */
  readonly timeoutMs: number;
}

export const DEFAULT_RETRY: RetryPolicy = { attempts: 5, baseDelayMs: 500, maxDelayMs: 8000, timeoutMs: 30_000 };

/** Knobs for tests and embedders: a faster retry policy or a fetch of their own. */
export interface HubFetchOptions {
  readonly retry?: Partial<RetryPolicy>;
  readonly fetch?: typeof globalThis.fetch;
}

/**
 * An HTTP answer the user can act on (401, 403, 404, 416…). It is a
 * UserError, so the CLI prints it cleanly, and it keeps the status so a
 * caller can turn a 404 into a better message (an unknown split, say).
 */
export class HubHttpError extends UserError {
  readonly status: number;
  readonly url: string;

  constructor(status: number, url: string, message: string, fix: string) {
    super(message, fix);
    this.status = status;
    this.url = url;
  }
}

/** A failure worth another attempt; internal to the retry loop. */
class TransientError extends Error {}

const REPO_NOUN: Readonly<Record<RepoType, string>> = { model: 'Model', dataset: 'Dataset', space: 'Space' };

function repoText(repo: HubRepoRef | undefined): string {
  return repo ? `${REPO_NOUN[repo.type]} "${repo.id}"` : 'The requested repository';
}

/**
 * Turns a refused or missing answer into a message naming what was asked for
 * and the fix: 401/403 say to set HF_TOKEN (private or gated repositories),
 * 404 names the repository. The Hub answers 401 with `X-Error-Code:
 * RepoNotFound` for a repository that does not exist when no token is sent,
 * so that case mentions both possibilities.
 */
export function httpError(env: HubEnv, request: HubRequest, response: Response): HubHttpError {
  const { status } = response;
  const code = response.headers.get('x-error-code');
  const serverText = response.headers.get('x-error-message');
  const detail = serverText ? ` (${serverText})` : '';
  const where = `${request.what} at ${request.url}`;
  const tokenFix = env.token
    ? 'Check that HF_TOKEN holds a token of an account that can read it; for a gated repository, accept its terms on the Hub first.'
    : 'If it is private or gated, set HF_TOKEN to a Hugging Face access token of an account that can read it (and accept its terms on the Hub if it is gated).';
  if (status === 404 || (status === 401 && code === 'RepoNotFound')) {
    const repo = repoText(request.repo);
    const found = status === 404 ? '' : ', or is private';
    return new HubHttpError(
      status,
      request.url,
      `${repo} was not found on ${env.endpoint}${found}: HTTP ${status} for ${where}${detail}`,
      `Check the id (org/name) and HF_ENDPOINT. ${status === 401 ? tokenFix : 'If it is private, set HF_TOKEN.'}`,
    );
  }
  if (status === 401 || status === 403) {
    return new HubHttpError(
      status,
      request.url,
      `${repoText(request.repo)}: access refused (HTTP ${status}) for ${where}${detail}`,
      `${tokenFix}${env.token ? '' : ' HF_TOKEN is not set now.'}`,
    );
  }
  return new HubHttpError(status, request.url, `HTTP ${status} for ${where}${detail}`, 'Check HF_ENDPOINT and the dataset or model id; try again later if the Hub is having trouble.');
}

/**
 * The error for a network request in offline mode: names what is missing
 * from the cache and where it was looked for.
 */
export function offlineError(what: string, cachePath: string): UserError {
  return new UserError(
    `HF_HUB_OFFLINE is set, and ${what} is not in the Hugging Face cache (looked in ${cachePath})`,
    'Run the same command once with network access (without HF_HUB_OFFLINE) to cache it, or point HF_HUB_CACHE / HF_HOME at the cache that has it.',
  );
}

function headersFor(env: HubEnv, request: HubRequest): Record<string, string> {
  const headers: Record<string, string> = { 'user-agent': `inferbench/${inferbenchVersion()}`, ...request.headers };
  // The token goes only to the configured Hub, never to another host a URL may point at.
  if (env.token && new URL(request.url).origin === new URL(env.endpoint).origin) headers['authorization'] = `Bearer ${env.token}`;
  return headers;
}

function describeCause(err: unknown): string {
  if (err instanceof TransientError) return err.message;
  const cause = (err as { cause?: { code?: string; message?: string } }).cause;
  const text = err instanceof Error ? err.message : String(err);
  if (cause?.code) return `${text}: ${cause.code}${cause.message && !cause.message.includes(cause.code) ? ` (${cause.message})` : ''}`;
  return cause?.message ? `${text}: ${cause.message}` : text;
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Runs `attempt` until it succeeds, retrying transient failures with
 * exponential backoff, then fails with one message saying what could not be
 * fetched, from where, and why the last attempt failed. UserErrors (401, 404…)
 * are not retried: asking again would get the same answer.
 */
async function withRetry<T>(env: HubEnv, request: HubRequest, options: HubFetchOptions, attempt: (signal: AbortSignal, arm: () => void) => Promise<T>): Promise<T> {
  if (env.offline) throw offlineError(request.what, env.cacheDir);
  const policy = { ...DEFAULT_RETRY, ...options.retry };
  let last: unknown;
  for (let i = 0; i < policy.attempts; i++) {
    if (i > 0) await sleep(Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (i - 1)));
    const controller = new AbortController();
    let timer: NodeJS.Timeout | undefined;
    const arm = (): void => {
      clearTimeout(timer);
      timer = setTimeout(() => controller.abort(new TransientError(`no answer within ${policy.timeoutMs} ms`)), policy.timeoutMs);
    };
    arm();
    try {
      return await attempt(controller.signal, arm);
    } catch (err) {
      if (err instanceof UserError) throw err;
      last = controller.signal.aborted ? controller.signal.reason : err;
    } finally {
      clearTimeout(timer);
    }
  }
  throw new UserError(
    `Could not fetch ${request.what} from ${request.url} after ${policy.attempts} attempts: ${describeCause(last)}`,
    `Check the network connection and HF_ENDPOINT (now ${env.endpoint}); the Hub may also be down. Set HF_HUB_OFFLINE=1 to use only what is already cached.`,
  );
}

async function send(env: HubEnv, request: HubRequest, options: HubFetchOptions, signal: AbortSignal): Promise<Response> {
  const doFetch = options.fetch ?? globalThis.fetch;
  const response = await doFetch(request.url, {
    method: request.method ?? 'GET',
    headers: headersFor(env, request),
    redirect: request.redirect ?? 'follow',
    signal,
  });
  if (response.status === 429 || response.status >= 500) {
    await response.body?.cancel().catch(() => undefined);
    throw new TransientError(`HTTP ${response.status}`);
  }
  if (response.status >= 400) {
    await response.body?.cancel().catch(() => undefined);
    throw httpError(env, request, response);
  }
  return response;
}

/**
 * Fetches from the Hub with the token, retries and error mapping, and
 * returns the response with its body unread (headers only are covered by the
 * retry). 2xx and, with `redirect: 'manual'`, 3xx answers are returned; 4xx
 * throw a HubHttpError; in offline mode it throws before connecting.
 */
export function hubFetch(env: HubEnv, request: HubRequest, options: HubFetchOptions = {}): Promise<Response> {
  return withRetry(env, request, options, (signal) => send(env, request, options, signal));
}

/** A half-open byte range `[start, end)` of a file of `fileSize` bytes, for HTTP range requests. */
export interface ByteRange {
  readonly start: number;
  readonly end: number;
  readonly fileSize: number;
}

/**
 * Fetches a whole body, or with `range` only those bytes (`Range:` header,
 * 206 expected), retrying when the connection drops mid-body or the body is
 * shorter than `Content-Length` or the range, so callers never see (or
 * cache) a truncated download.
 */
export function hubFetchBytes(env: HubEnv, request: HubRequest, options: HubFetchOptions & { range?: ByteRange } = {}): Promise<Uint8Array> {
  const { range } = options;
  const ranged = range ? { ...request, headers: { ...request.headers, range: `bytes=${range.start}-${range.end - 1}` } } : request;
  return withRetry(env, ranged, options, async (signal, arm) => {
    const response = await send(env, ranged, options, signal);
    if (range && response.status !== 206 && !(response.status === 200 && range.start === 0 && range.end === range.fileSize)) {
      await response.body?.cancel().catch(() => undefined);
      throw new UserError(
        `${request.url} ignored the Range header (HTTP ${response.status}) while fetching ${request.what}`,
        `Streaming needs a server that answers range requests; check HF_ENDPOINT (now ${env.endpoint}).`,
      );
    }
    const declared = response.headers.get('content-length');
    const expected = range ? range.end - range.start : declared === null ? undefined : Number(declared);
    const chunks: Uint8Array[] = [];
    let length = 0;
    if (response.body) {
      for await (const chunk of response.body as AsyncIterable<Uint8Array>) {
        arm();
        chunks.push(chunk);
        length += chunk.byteLength;
      }
    }
    if (expected !== undefined && length !== expected) throw new TransientError(`the body ended after ${length} of ${expected} bytes`);
    if (chunks.length === 1 && chunks[0]) return chunks[0];
    const out = new Uint8Array(length);
    let offset = 0;
    for (const chunk of chunks) {
      out.set(chunk, offset);
      offset += chunk.byteLength;
    }
    return out;
  });
}

/** Fetches and parses a JSON document; a body that is not JSON is an error naming the URL. */
export async function hubFetchJson(env: HubEnv, request: HubRequest, options: HubFetchOptions = {}): Promise<unknown> {
  const bytes = await hubFetchBytes(env, request, options);
  try {
    return JSON.parse(new TextDecoder().decode(bytes));
  } catch {
    throw new UserError(`${request.url} did not answer with JSON (${request.what})`, `Check HF_ENDPOINT (now ${env.endpoint}): it must point at a Hugging Face Hub or a mirror of it.`);
  }
}

/** What a HEAD on a `resolve` URL tells about a file, as huggingface_hub reads it. */
export interface HubFileMetadata {
  /** `X-Repo-Commit`: the commit the revision resolved to; null when the server did not say. */
  readonly commit: string | null;
  /** `X-Linked-Etag` (LFS files) or `ETag`, unquoted; identifies the content. */
  readonly etag: string | null;
  /** `X-Linked-Size` or `Content-Length`; null when unknown. */
  readonly size: number | null;
  /** The last same-origin URL reached, e.g. the `resolve` URL an API shortcut redirects to. */
  readonly resolvedUrl: string;
}

const MAX_REDIRECTS = 10;

/** Strips the weak prefix and quotes of an ETag so it can name a cache file. */
function cleanEtag(value: string | null): string | null {
  if (value === null) return null;
  const clean = value.replace(/^W\//u, '').replace(/"/gu, '').trim();
  return clean === '' ? null : clean;
}

/**
 * HEADs a file URL and reads its commit, ETag and size. Redirects within the
 * Hub (an API shortcut to `resolve`, a renamed repository) are followed; a
 * redirect to another host (the CDN that stores large files) is not, because
 * the Hub puts the file's metadata on that redirect itself.
 */
export async function hubFileMetadata(env: HubEnv, request: HubRequest, options: HubFetchOptions = {}): Promise<HubFileMetadata> {
  let url = request.url;
  for (let hop = 0; hop <= MAX_REDIRECTS; hop++) {
    const response = await hubFetch(env, { ...request, url, method: 'HEAD', redirect: 'manual' }, options);
    await response.body?.cancel().catch(() => undefined);
    const location = response.headers.get('location');
    const sameOrigin = location !== null && new URL(location, url).origin === new URL(url).origin;
    if (response.status >= 300 && response.status < 400 && location !== null && sameOrigin) {
      url = new URL(location, url).toString();
      continue;
    }
    const size = response.headers.get('x-linked-size') ?? response.headers.get('content-length');
    return {
      commit: response.headers.get('x-repo-commit'),
      etag: cleanEtag(response.headers.get('x-linked-etag') ?? response.headers.get('etag')),
      size: size === null || !/^\d+$/u.test(size) ? null : Number(size),
      resolvedUrl: url,
    };
  }
  throw new UserError(`Too many redirects fetching ${request.what} from ${request.url}`, `Check HF_ENDPOINT (now ${env.endpoint}).`);
}
