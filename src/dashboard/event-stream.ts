import type { IncomingMessage, ServerResponse } from 'node:http';
import type { QueueEvent, RunQueue } from './run-queue.js';

/** Sent as a comment so proxies and the browser keep an idle stream open. */
const HEARTBEAT_MS = 15_000;

/**
 * Server-Sent Events of the queue: `queued`, `started`, `progress` (cells
 * done / total and the cell being measured), `finished`, `removed`. The
 * first event is `hello` with the current progress, so a page opened
 * mid-run shows it at once.
 */
export async function openEventStream(req: IncomingMessage, res: ServerResponse, queue: RunQueue): Promise<void> {
  res.writeHead(200, {
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-store',
    connection: 'keep-alive',
    'x-content-type-options': 'nosniff',
  });
  const send = (type: string, data: unknown) => res.write(`event: ${type}\ndata: ${JSON.stringify(data)}\n\n`);
  send('hello', { current: queue.current() });
  const listener = (e: QueueEvent) => send(e.type, e);
  queue.on('event', listener);
  const heartbeat = setInterval(() => res.write(': keep-alive\n\n'), HEARTBEAT_MS);
  await new Promise<void>((resolve) => {
    const end = () => {
      clearInterval(heartbeat);
      queue.off('event', listener);
      resolve();
    };
    req.on('close', end);
    res.on('close', end);
  });
}
