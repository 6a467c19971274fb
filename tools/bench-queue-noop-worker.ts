/**
 * The worker side of `npm run bench:queue`: the real worker loop
 * (registration, schema check, eligibility, BullMQ lock and result posting)
 * around a no-op job runner, so the bench times the queue and nothing else.
 * Usage: node dist/tools/bench-queue-noop-worker.js redis://HOST:PORT NAME
 */
import { collectEnvironment } from '../src/core/environment.js';
import { parseRedisUrl } from '../src/launchers/queue/redis-url.js';
import { startWorkerLoop } from '../src/launchers/queue/worker-loop.js';
import { fingerprintId } from '../src/launchers/queue/worker-registry.js';

const [url, name = 'noop-worker'] = process.argv.slice(2);
if (!url) throw new Error('usage: bench-queue-noop-worker.js redis://HOST:PORT [NAME]');
const environment = collectEnvironment();
const worker = await startWorkerLoop({
  address: parseRedisUrl(url),
  info: { name, id: fingerprintId(environment), environment, engines: [{ id: 'noop', available: true }], concurrency: 1 },
  concurrency: 1,
  stallMs: 30_000,
  run: async () => [],
  log: () => undefined,
});
process.stderr.write('ready\n');
process.on('SIGTERM', () => void worker.close());
await worker.done;
