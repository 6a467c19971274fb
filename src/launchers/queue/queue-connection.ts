/**
 * The queue launcher (core/queue-launch.ts `WorkerQueue`): connect to the
 * Redis a run names (a UserError naming the masked URL when unreachable),
 * wait for its workers, serve the run's local files by hash when asked
 * (`--serve-models`), and run jobs of any registered kind through the
 * coordinator. It names no scenario: a run builds its own jobs and cells
 * around it, handed it as `Launchers.queue` (src/runs/builtin-launchers.ts).
 */
import { UserError } from '../../core/errors.js';
import { buildManifest } from '../../core/file-manifest.js';
import type { FileManifest, QueueJob } from '../../core/queue-jobs.js';
import type { JobHooks, QueueConnectOptions, WorkerInfo, WorkerQueue } from '../../core/queue-launch.js';
import { QueueCoordinator } from './coordinator.js';
import { startFileServer, type FileServer } from './file-server.js';
import { parseRedisUrl } from './redis-url.js';

/** Default wait for workers to register. */
const WAIT_FOR_WORKERS_MS = 10_000;

class QueueConnection implements WorkerQueue {
  private readonly manifests = new Map<string, FileManifest>();

  constructor(
    private readonly coordinator: QueueCoordinator,
    readonly workers: readonly WorkerInfo[],
    private readonly server: FileServer | null,
  ) {}

  get masked(): string {
    return this.coordinator.address.masked;
  }

  registered(): Promise<readonly WorkerInfo[]> {
    return this.coordinator.registered();
  }

  async serve(path: string, what: string): Promise<FileManifest> {
    const known = this.manifests.get(path);
    if (known) return known;
    if (!this.server) throw new UserError(`${what} ${path} is on this machine's disk, and workers have no shared disk`, 'pass --serve-models HOST:PORT (an address of this machine the workers can reach) so they fetch it by hash');
    const { manifest, absolute } = await buildManifest(path, this.server.url);
    this.server.add(absolute);
    this.manifests.set(path, manifest);
    return manifest;
  }

  runJobs<Job extends QueueJob>(jobs: readonly Job[], hooks: JobHooks<Job>): Promise<void> {
    return this.coordinator.runJobs(jobs, hooks);
  }

  async close(): Promise<void> {
    await this.server?.close();
    await this.coordinator.close();
  }
}

/** Connects and waits for the workers; nothing is left open when it throws. */
export async function connectQueue(options: QueueConnectOptions): Promise<WorkerQueue> {
  const coordinator = await QueueCoordinator.connect(parseRedisUrl(options.url));
  try {
    const workers = await coordinator.waitForWorkers(options.workers, options.waitForWorkersMs ?? WAIT_FOR_WORKERS_MS);
    const server = options.serveModels !== null ? await startFileServer(options.serveModels) : null;
    return new QueueConnection(coordinator, workers, server);
  } catch (err) {
    await coordinator.close();
    throw err;
  }
}
