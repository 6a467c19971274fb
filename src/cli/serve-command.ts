import { DEFAULT_OUT_DIR } from '../core/output-folder.js';
import { UserError } from '../core/errors.js';
import { DEFAULT_PORT } from '../dashboard/dashboard-port.js';
import { isLoopback } from '../dashboard/security.js';
import { listFlag, stringFlag, type ParsedArgs } from './args.js';
import { stopOnSignals } from './stop-signals.js';
import type { EngineRegistry } from '../core/engine-registry.js';

function portFlag(args: ParsedArgs): number {
  const raw = stringFlag(args, 'port');
  if (raw === undefined) return DEFAULT_PORT;
  if (!/^\d+$/.test(raw) || Number(raw) > 65535) throw new UserError(`--port must be a whole number from 0 to 65535, got "${raw}"`, 'e.g. --port 8765, or --port 0 for a free port');
  return Number(raw);
}

/**
 * `inferbench serve`: starts the dashboard and prints its URL (with the
 * token off loopback). Ctrl-C, SIGTERM or SIGHUP stop the run in progress
 * after its current batch, record it as interrupted (naming the signal)
 * with its measured cells, and exit with 128 + the signal's number.
 */
export async function serveCommand(args: ParsedArgs, registry: EngineRegistry): Promise<number> {
  const host = stringFlag(args, 'host') ?? '127.0.0.1';
  const options = {
    out: stringFlag(args, 'out') ?? DEFAULT_OUT_DIR,
    host,
    registry,
    port: portFlag(args),
    root: stringFlag(args, 'root') ?? process.cwd(),
    allow: listFlag(args, 'allow') ?? [],
    ...(stringFlag(args, 'token') !== undefined ? { token: stringFlag(args, 'token') } : {}),
  };
  // The dashboard (and through it the run stack) loads only once the flags are checked.
  const { startDashboard } = await import('../dashboard/server.js');
  const dashboard = await startDashboard(options);
  const url = dashboard.token === null ? dashboard.url : `${dashboard.url}?token=${dashboard.token}`;
  for (const id of dashboard.recovered) process.stderr.write(`inferbench serve: benchmark ${id} was left running by a process that died; marked interrupted\n`);
  process.stdout.write(`inferbench dashboard: ${url}\n`);
  process.stdout.write(`  history: ${dashboard.store.file}\n`);
  if (dashboard.token !== null) {
    process.stdout.write(`  access token: ${dashboard.token}\n`);
    if (!isLoopback(host)) process.stdout.write(`  listening on ${host}: anyone who can reach it needs this token; every API call without it gets 401\n`);
  }
  process.stdout.write('  Ctrl-C to stop\n');
  // The stop handler every command uses: the run in progress ends after its current batch, recorded as interrupted by this signal.
  const stop = stopOnSignals('batch of the run in progress');
  await new Promise<void>((resolve) => {
    stop.signal.addEventListener('abort', () => void dashboard.close().then(resolve, resolve), { once: true });
  });
  stop.release();
  return stop.exitCode() ?? 0;
}
