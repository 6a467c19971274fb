import { homedir } from 'node:os';
import { join, resolve } from 'node:path';

/** Default Hub address, as in huggingface_hub. */
export const DEFAULT_HF_ENDPOINT = 'https://huggingface.co';

/**
 * The Hugging Face settings a download needs, resolved once from the
 * environment. Models and datasets read the same variables as huggingface_hub
 * so a user's existing setup (mirror, token, cache, offline) just works.
 */
export interface HubEnv {
  /** Base URL without a trailing slash (`HF_ENDPOINT`). */
  readonly endpoint: string;
  /** Access token sent as `Authorization: Bearer` (`HF_TOKEN`); null when unset. */
  readonly token: string | null;
  /** Root of the shared Hub cache (`HF_HUB_CACHE`, else `$HF_HOME/hub`). */
  readonly cacheDir: string;
  /** `HF_HUB_OFFLINE` is set: serve from the cache only and never open a connection. */
  readonly offline: boolean;
}

/** Values huggingface_hub treats as true for boolean variables such as HF_HUB_OFFLINE. */
const TRUE_VALUES = new Set(['1', 'on', 'yes', 'true']);

/** True when a boolean environment variable is set the way huggingface_hub reads it ("1", "ON", "YES", "TRUE"). */
export function envFlag(value: string | undefined): boolean {
  return value !== undefined && TRUE_VALUES.has(value.trim().toLowerCase());
}

/**
 * Resolves HF_ENDPOINT, HF_TOKEN, HF_HOME / HF_HUB_CACHE and HF_HUB_OFFLINE
 * with huggingface_hub's defaults and precedence. Takes the environment as a
 * parameter (default `process.env`) so tests never touch the user's own cache
 * or token; `overrides` wins over both, for callers that set one field in code.
 */
export function resolveHubEnv(env: NodeJS.ProcessEnv = process.env, overrides: Partial<HubEnv> = {}): HubEnv {
  const nonEmpty = (v: string | undefined): string | undefined => (v !== undefined && v.trim() !== '' ? v.trim() : undefined);
  const endpoint = (nonEmpty(env['HF_ENDPOINT']) ?? DEFAULT_HF_ENDPOINT).replace(/\/+$/u, '');
  const token = nonEmpty(env['HF_TOKEN']) ?? nonEmpty(env['HUGGING_FACE_HUB_TOKEN']) ?? null;
  const hfHome = nonEmpty(env['HF_HOME']) ?? join(nonEmpty(env['XDG_CACHE_HOME']) ?? join(homedir(), '.cache'), 'huggingface');
  const cacheDir = resolve(nonEmpty(env['HF_HUB_CACHE']) ?? nonEmpty(env['HUGGINGFACE_HUB_CACHE']) ?? join(hfHome, 'hub'));
  return { endpoint, token, cacheDir, offline: envFlag(env['HF_HUB_OFFLINE']), ...overrides };
}
