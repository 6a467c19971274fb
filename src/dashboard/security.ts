import { randomBytes, timingSafeEqual } from 'node:crypto';
import { isIP } from 'node:net';
import type { IncomingMessage } from 'node:http';
import { UserError } from '../core/errors.js';

/** Where the dashboard listens unless told otherwise: this machine only. */
export const DEFAULT_HOST = '127.0.0.1';

const MIN_TOKEN_LENGTH = 16;

/** True for addresses only this machine can reach (127.0.0.0/8, ::1, localhost). */
export function isLoopback(host: string): boolean {
  const h = host.replace(/^\[|\]$/g, '').toLowerCase();
  if (h === 'localhost' || h === '::1') return true;
  if (isIP(h) === 4) return h.startsWith('127.');
  if (h.startsWith('::ffff:')) return h.slice(7).startsWith('127.');
  return false;
}

/**
 * The access token: none on loopback, where only this machine's users can
 * connect; otherwise the one given (checked for length) or 32 random bytes.
 */
export function accessToken(host: string, given: string | undefined): string | null {
  if (given !== undefined) {
    if (given.length < MIN_TOKEN_LENGTH) throw new UserError(`--token must be at least ${MIN_TOKEN_LENGTH} characters`, 'leave --token out to have one generated');
    return given;
  }
  return isLoopback(host) ? null : randomBytes(32).toString('base64url');
}

/** The token a request carries: `Authorization: Bearer …`, or `?token=` for EventSource, which cannot set headers. */
function presentedToken(req: IncomingMessage, url: URL): string | null {
  const header = req.headers['authorization'];
  if (typeof header === 'string' && header.startsWith('Bearer ')) return header.slice(7).trim();
  return url.searchParams.get('token');
}

/** Constant-time token check, so response timing does not leak the token. */
export function tokenMatches(req: IncomingMessage, url: URL, token: string | null): boolean {
  if (token === null) return true;
  const got = presentedToken(req, url);
  if (got === null) return false;
  const a = Buffer.from(got);
  const b = Buffer.from(token);
  return a.length === b.length && timingSafeEqual(a, b);
}

/**
 * Refuses requests a web page on another site could make through the
 * user's browser. On loopback, where there is no token, the Host header
 * must name this machine and port (a DNS-rebinding page sends its own
 * name). Anywhere, a request that changes something must come from the
 * dashboard's own origin when the browser says where it comes from.
 * Returns the reason, or null when the request may go on.
 */
export function crossSiteReason(req: IncomingMessage, listening: { readonly host: string; readonly port: number }): string | null {
  const host = req.headers.host;
  if (host === undefined) return 'missing Host header';
  if (isLoopback(listening.host)) {
    const match = /^(\[[^\]]+\]|[^:]+)(?::(\d+))?$/.exec(host);
    if (!match || !isLoopback(match[1] as string) || Number(match[2] ?? 80) !== listening.port) return `Host ${host} is not this dashboard`;
  }
  const origin = req.headers.origin;
  if (req.method !== 'GET' && req.method !== 'HEAD' && origin !== undefined) {
    let originHost: string | null = null;
    try {
      originHost = new URL(origin).host;
    } catch {
      // An opaque origin ("null") or garbage: not this dashboard.
    }
    if (originHost !== host) return `Origin ${origin} is not this dashboard`;
  }
  return null;
}
