/**
 * The `--queue` address: parsed once into ioredis options, masked wherever
 * it is shown or recorded (a password must never reach a log, a results file
 * or the history), and probed before anything is planned, so an unreachable
 * Redis fails at once with its address instead of retrying forever.
 */
import type { RedisOptions } from 'ioredis';
import { describeError, UserError } from '../../core/errors.js';

/** A parsed `redis://` / `rediss://` address. */
export interface RedisAddress {
  /** ioredis options (host, port, credentials, db, TLS); holds the password, so never log or record it. */
  readonly options: RedisOptions;
  /** The address with the password replaced by `***`: the only form that is shown or stored. */
  readonly masked: string;
}

const FIX = 'pass --queue redis://[USER:PASSWORD@]HOST:PORT[/DB] (rediss:// for TLS), with a redis-server listening there';

/** A part of the authority, %-decoded; a malformed escape (`%ZZ`) is a UserError that echoes nothing of it. */
function decoded(part: string, what: string): string {
  try {
    return decodeURIComponent(part);
  } catch {
    throw new UserError(`--queue's ${what} holds a "%" that is not followed by two hex digits`, `write a literal "%" as %25 (percent-encode the ${what}), then ${FIX}`);
  }
}

/**
 * The only form of an address that is shown or stored, built from the
 * fields the URL parser found, never by editing the text: the password is
 * `***` whatever characters it holds (`@`, `:`, `/`…), a lone user name
 * (a token) is `***`, and nothing after the database number is kept.
 */
function maskedOf(url: URL, db: string): string {
  const auth = url.password !== '' ? `${url.username}:***@` : url.username !== '' ? '***@' : '';
  return `${url.protocol}//${auth}${url.host}${db === '' ? '' : `/${db}`}`;
}

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
  // Not echoed either: a password with an unencoded "/" ends up here.
  if (!/^\d{0,9}$/.test(dbText) || url.search !== '' || url.hash !== '') {
    throw new UserError('--queue must end with the host, port and an optional database number (redis://HOST:PORT/0)', `percent-encode any "/", "?" or "#" in the password, then ${FIX}`);
  }
  const db = dbText === '' ? 0 : Number(dbText);
  const options: RedisOptions = {
    host: url.hostname.replace(/^\[|\]$/g, ''),
    port,
    db,
    ...(url.username ? { username: decoded(url.username, 'user name') } : {}),
    ...(url.password ? { password: decoded(url.password, 'password') } : {}),
    // rediss:// verifies the server certificate against Node's CAs (add yours with NODE_EXTRA_CA_CERTS).
    ...(url.protocol === 'rediss:' ? { tls: { servername: url.hostname } } : {}),
  };
  return { options, masked: maskedOf(url, dbText) };
}

/** `redis://user:***@host:port`: any address as it may be shown, or a placeholder when it does not parse (it cannot be masked reliably then). */
export function maskRedisUrl(text: string): string {
  try {
    const url = new URL(text);
    const db = url.pathname.replace(/^\//, '');
    return maskedOf(url, /^\d+$/.test(db) ? db : '');
  } catch {
    return 'redis://*** (not a valid address)';
  }
}

/** How long a first connection may take before Redis counts as unreachable. */
const CONNECT_TIMEOUT_MS = 3000;

/**
 * Opens one connection and PINGs, without retrying: an unreachable server
 * or a wrong password is a UserError naming the (masked) address.
 */
export async function probeRedis(address: RedisAddress): Promise<void> {
  // ioredis loads here, once the flags are checked: parsing an address (and refusing a bad one) needs none of it.
  const { Redis } = (await import('./queue-require.cjs')).default.ioredis;
  const db = address.options.db ?? 0;
  const client = new Redis({
    ...address.options,
    // Database 0 always exists: the one asked for is selected below, where a refusal can be named.
    db: 0,
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
    try {
      await client.connect();
      await client.ping();
    } catch (err) {
      throw new UserError(`cannot reach Redis at ${address.masked}: ${describeError(cause ?? err)}`, `start redis-server there (or check the password), or ${FIX}`);
    }
    // ioredis only logs a failed SELECT and goes on with database 0: a bad index would run the queue on the wrong database.
    if (db !== 0) await client.select(db).catch(async (err: unknown) => {
      const count = await client.config('GET', 'databases').then((r) => Number((r as string[])[1]), () => NaN);
      const has = Number.isInteger(count) && count > 0 ? `has databases 0 to ${count - 1}` : `refuses it (${describeError(err)})`;
      throw new UserError(`--queue names database ${db}, but the Redis server at ${address.masked} ${has}`, `end --queue with a database number the server has, e.g. /0${Number.isInteger(count) && count > 0 ? ` (0 to ${count - 1})` : ''}`);
    });
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
