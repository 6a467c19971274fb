import type { IncomingMessage, ServerResponse } from 'node:http';
import { UserError } from '../core/errors.js';
import { FieldError } from '../core/field-error.js';

/** Largest request body accepted; a run request is well under 1 KiB. */
const MAX_BODY_BYTES = 64 * 1024;

/** An error that answers with its own HTTP status. */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly fix?: string,
    readonly field?: string,
  ) {
    super(message);
  }
}

/** Security headers on every response: no framing, no sniffing, only this origin's scripts. */
const BASE_HEADERS = {
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'referrer-policy': 'no-referrer',
  'cache-control': 'no-store',
};

export function sendJson(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { ...BASE_HEADERS, 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(text) });
  res.end(text);
}

export function sendBytes(res: ServerResponse, type: string, data: Buffer | string, extra: Record<string, string> = {}): void {
  res.writeHead(200, { ...BASE_HEADERS, 'content-type': type, 'content-length': Buffer.byteLength(data), ...extra });
  res.end(data);
}

/**
 * The JSON error body every failure uses: `{ error, fix?, field? }`. User
 * mistakes are 400 (with the field's name when there is one); anything
 * else is a 500 whose details go to the server's log, not the client.
 */
export function sendError(res: ServerResponse, err: unknown, log: (message: string) => void): void {
  if (err instanceof HttpError) {
    sendJson(res, err.status, { error: err.message, ...(err.fix ? { fix: err.fix } : {}), ...(err.field ? { field: err.field } : {}) });
  } else if (err instanceof FieldError) {
    sendJson(res, 400, { error: err.message, field: err.field, ...(err.fix ? { fix: err.fix } : {}) });
  } else if (err instanceof UserError) {
    sendJson(res, 400, { error: err.message, ...(err.fix ? { fix: err.fix } : {}) });
  } else {
    log(`internal error: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
    sendJson(res, 500, { error: 'internal error; see the dashboard log' });
  }
}

/** Reads a JSON body; only `application/json` is accepted, so a plain HTML form on another site cannot post here. */
export async function readJson(req: IncomingMessage): Promise<unknown> {
  const type = req.headers['content-type'] ?? '';
  if (!/^application\/json\b/i.test(type)) throw new HttpError(415, 'send the body as JSON', 'set Content-Type: application/json');
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY_BYTES) throw new HttpError(413, 'request body too large', `keep it under ${MAX_BODY_BYTES} bytes`);
    chunks.push(chunk as Buffer);
  }
  const text = Buffer.concat(chunks).toString('utf8');
  if (text.trim() === '') return {};
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new HttpError(400, 'the request body is not valid JSON', 'send a JSON object', 'body');
  }
}

/** A positive whole-number id from a URL part, or a 400 naming the parameter. */
export function parseId(text: string | null | undefined, field = 'id'): number {
  if (text === null || text === undefined || !/^\d{1,9}$/.test(text) || Number(text) === 0) {
    throw new HttpError(400, `${field} must be a benchmark id (a positive whole number), got ${JSON.stringify(text ?? null)}`, 'use an id from the list', field);
  }
  return Number(text);
}
