import { hostname } from 'node:os';
import { unavailableText } from '../core/engine-registry.js';
import { collectEnvironment } from '../core/environment.js';
import { UserError } from '../core/errors.js';
import { defaultCacheRoot } from '../core/cache-root.js';
import { parseRedisUrl, probeRedis } from '../launchers/queue/redis-url.js';
import { fingerprintId } from '../launchers/queue/worker-registry.js';
import type { WorkerEngine } from '../core/queue-launch.js';
import { listFlag, numberFlag, positiveIntFlag, stringFlag, type ParsedArgs } from './args.js';
import { stopExitCode } from './stop-signals.js';
import { STOP_SIGNALS, type StopSignal } from '../core/stop-cause.js';
import type { EngineRegistry } from '../core/engine-registry.js';
import type { FileManifest } from '../core/queue-jobs.js';

/** Default seconds a silent worker keeps a job before another worker takes it (BullMQ's lock). */
export const DEFAULT_STALL_TIMEOUT_S = 30;

/**
 * `inferbench worker --queue redis://HOST:PORT`: register this machine's
 * fingerprint and engines, then run open-group jobs one at a time (or
 * `--concurrency` at once), each open in a fresh child process as a local
 * run does, posting the cells back through the queue. Ctrl-C (or SIGTERM,
 * as Kubernetes sends) finishes the current job and leaves.
 */
export async function workerCommand(args: ParsedArgs, registry: EngineRegistry): Promise<number> {
  const url = stringFlag(args, 'queue');
  if (url === undefined) throw new UserError('inferbench worker needs --queue', 'pass --queue redis://HOST:PORT (the Redis the coordinator uses)');
  const address = parseRedisUrl(url);
  const name = stringFlag(args, 'name') ?? hostname();
  if (!/^[\w.-]{1,64}$/.test(name)) throw new UserError(`--name must be letters, digits, '.', '_' or '-' (at most 64), got "${name}"`, 'pass --name gpu-a100-1, for example');
  const concurrency = positiveIntFlag(args, 'concurrency') ?? 1;
  const stallS = numberFlag(args, 'stall-timeout') ?? DEFAULT_STALL_TIMEOUT_S;
  if (!(stallS >= 1 && stallS <= 3600)) throw new UserError(`--stall-timeout must be between 1 and 3600 seconds, got ${stallS}`, `pass --stall-timeout ${DEFAULT_STALL_TIMEOUT_S} (the default)`);
  // Registered by dispatch.ts before this command ran; each job's child is given them too.
  const engineModules = registry.engineModules();
  const offered = listFlag(args, 'engines');
  if (offered) registry.parseNames(offered, '--engines');
  await probeRedis(address);
  // Only the offered engines are probed (loading a runtime takes seconds); the rest show as not offered.
  const statuses = await registry.statusAll(offered ?? registry.listedIds());
  const engines: WorkerEngine[] = [...new Set([...registry.listedIds(), ...(offered ?? [])])].map((engineId) => {
    const s = statuses.find((x) => x.id === engineId);
    if (!s) return { id: engineId, available: false, reason: `not offered by this worker (its --engines is ${offered?.join(',')})` };
    return s.availability.available ? { id: s.id, available: true, versions: s.availability.versions } : { id: s.id, available: false, reason: unavailableText(s) };
  });
  const environment = collectEnvironment();
  const id = fingerprintId(environment);
  const log = (line: string) => process.stderr.write(`inferbench worker ${name}: ${line}\n`);
  const { liveWorkers } = await import('../launchers/queue/worker-registry.js');
  const { Redis } = (await import('../launchers/queue/queue-require.cjs')).default.ioredis;
  const probe = new Redis({ ...address.options, lazyConnect: true, maxRetriesPerRequest: 1 });
  probe.on('error', () => undefined);
  await probe.connect();
  const taken = (await liveWorkers(probe)).some((w) => w.name === name);
  probe.disconnect();
  if (taken) throw new UserError(`a worker named "${name}" is already registered on ${address.masked}`, 'give each worker its own --name');
  // BullMQ and the job runner load once the flags are checked and Redis answered: a refused flag costs no queue stack.
  // Every registered scenario's queue job kinds and runners are this entry's to import: the queue launcher names no scenario.
  const [{ startWorkerLoop }, { runQueueJob }, { loadQueueJobs }, { fetchManifest }, { BUILTIN_LAUNCHERS }] = await Promise.all([
    import('../launchers/queue/worker-loop.js'),
    import('../core/queue-runners.js'),
    import('../scenarios/scenario-jobs.js'),
    import('../launchers/queue/file-fetch.js'),
    import('../runs/builtin-launchers.js'),
  ]);
  await loadQueueJobs();
  const cacheRoot = defaultCacheRoot();
  const context = {
    registry,
    engineModules,
    host: { name, id },
    launchers: BUILTIN_LAUNCHERS,
    fetchFiles: (manifest: FileManifest, field: string) => fetchManifest(manifest, cacheRoot, field),
  };
  const worker = await startWorkerLoop({
    address,
    info: { name, id, environment, engines, concurrency },
    concurrency,
    stallMs: stallS * 1000,
    run: (job, retries) => runQueueJob(job, retries, context),
    log,
  });
  const have = engines.filter((e) => e.available).map((e) => e.id);
  const lack = engines.filter((e) => !e.available).map((e) => e.id);
  log(`ready on ${address.masked} (machine ${id}, ${environment.cpuModel}, ${environment.cores} cores${environment.gpus.length ? `, ${environment.gpus.join(', ')}` : ''}); engines: ${have.join(', ') || 'none'}${lack.length ? `; unavailable here: ${lack.join(', ')}` : ''}`);
  let signalled: StopSignal | null = null;
  const stop = (sig: StopSignal) => {
    if (signalled) process.exit(stopExitCode(sig));
    signalled = sig;
    log(`${sig}: finishing the current job, then leaving (again to quit now)`);
    void worker.close();
  };
  for (const sig of Object.keys(STOP_SIGNALS) as StopSignal[]) process.on(sig, () => stop(sig));
  try {
    await worker.done;
  } catch (err) {
    // Redis went away: say so and leave now; BullMQ's reconnect timers and a job's child would otherwise keep the process up.
    const message = err instanceof UserError ? `inferbench: error: ${err.message}\n${err.fix ? `  fix: ${err.fix}\n` : ''}` : `inferbench: error: ${String(err)}\n`;
    process.stderr.write(message, () => process.exit(err instanceof UserError ? err.exitCode : 1));
    return new Promise<number>(() => undefined);
  }
  log('stopped');
  return signalled === 'SIGINT' ? stopExitCode('SIGINT') : 0;
}
