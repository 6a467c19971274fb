/**
 * The `--queue` address: parsed once into ioredis options, masked wherever
 * it is shown or recorded (a password must never reach a log, a results file
 * or the history), and probed before anything is planned, so an unreachable
 * Redis fails at once with its address instead of retrying forever.
 */
import { Redis, type RedisOptions } from 'ioredis';
import { describeError, UserError } from '../../core/errors.js';

/** A parsed `redis://` / `rediss://` address. */
export interface RedisAddress {
  /** ioredis options (host, port, credentials, db, TLS); holds the password, so never log or record it. */
  readonly options: RedisOptions;
  /** The address with the password replaced by `***`: the only form that is shown or stored. */
  readonly masked: string;
}

const FIX = 'pass --queue redis://[USER:PASSWORD@]HOST:PORT[/DB] (rediss:// for TLS), with a redis-server listening there';

/** Parses `--queue`; a malformed address is a UserError that never echoes the password. */
export function parseRedisUrl(text: string): RedisAddress {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    // Not echoed: an address that does not parse cannot be masked reliably, and may hold a password.
    throw new UserError('--queue is not a valid redis:// address', FIX);
  }
  if (url.protocol !== 'redis:' && url.protocol !== 'rediss:') {
    throw new UserError(`--queue must start with redis:// or rediss://, got ${url.protocol}//`, FIX);
  }
  if (url.hostname === '') throw new UserError('--queue names no host', FIX);
  const port = url.port === '' ? 6379 : Number(url.port);
  const dbText = url.pathname.replace(/^\//, '');
  const db = dbText === '' ? 0 : Number(dbText);
  if (!Number.isInteger(db) || db < 0) throw new UserError(`--queue database must be a whole number, got "${dbText}"`, FIX);
  const options: RedisOptions = {
    host: url.hostname.replace(/^\[|\]$/g, ''),
    port,
    db,
    ...(url.username ? { username: decodeURIComponent(url.username) } : {}),
    ...(url.password ? { password: decodeURIComponent(url.password) } : {}),
    // rediss:// verifies the server certificate against Node's CAs (add yours with NODE_EXTRA_CA_CERTS).
    ...(url.protocol === 'rediss:' ? { tls: { servername: url.hostname } } : {}),
  };
  return { options, masked: maskRedisUrl(text) };
}

/** `redis://user:***@host:port`: the password (anything between `:` and `@` of the authority) hidden. */
export function maskRedisUrl(text: string): string {
  return text.replace(/^([a-z][a-z0-9+.-]*:\/\/)([^/@]*)@/i, (_m, scheme: string, auth: string) => {
    const colon = auth.indexOf(':');
    return colon < 0 ? `${scheme}***@` : `${scheme}${auth.slice(0, colon)}:***@`;
  });
}

/** How long a first connection may take before Redis counts as unreachable. */
const CONNECT_TIMEOUT_MS = 3000;

/**
 * Opens one connection and PINGs, without retrying: an unreachable server
 * or a wrong password is a UserError naming the (masked) address.
 */
export async function probeRedis(address: RedisAddress): Promise<void> {
  const client = new Redis({
    ...address.options,
    lazyConnect: true,
    connectTimeout: CONNECT_TIMEOUT_MS,
    maxRetriesPerRequest: 0,
    enableOfflineQueue: false,
    retryStrategy: () => null,
  });
  // ioredis rejects connect() with "Connection is closed"; the socket's own error (ECONNREFUSED, ENOTFOUND, a TLS failure) says more.
  let cause: unknown;
  client.on('error', (err) => (cause ??= err));
  try {
    await client.connect();
    await client.ping();
  } catch (err) {
    throw new UserError(`cannot reach Redis at ${address.masked}: ${describeError(cause ?? err)}`, `start redis-server there (or check the password), or ${FIX}`);
  } finally {
    client.disconnect();
  }
}

/** Attempts, 250 ms apart, before a lost connection counts as Redis gone (about 3 s). */
const RECONNECT_ATTEMPTS = 12;

/**
 * Options of a long-lived connection: BullMQ needs `maxRetriesPerRequest:
 * null`; reconnects are bounded so a Redis that went away ends the run (or
 * the worker) with a clear error instead of hanging.
 */
export function liveConnectionOptions(address: RedisAddress): RedisOptions {
  return {
    ...address.options,
    connectTimeout: CONNECT_TIMEOUT_MS,
    maxRetriesPerRequest: null,
    retryStrategy: (times: number) => (times > RECONNECT_ATTEMPTS ? null : 250),
  };
}

/** The UserError of a connection lost mid-run. */
export function redisLost(address: RedisAddress, why: string): UserError {
  return new UserError(`lost the connection to Redis at ${address.masked}: ${why}`, 'restart redis-server (a queue without persistence loses its jobs) and run again; cells already finished are in the run folder');
}
