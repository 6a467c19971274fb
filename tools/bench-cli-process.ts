/**
 * What the CLI benches share: one `inferbench` command run as a user runs it
 * (`node dist/src/cli/main.js …`), timed from outside: wall seconds, and CPU
 * seconds of the command and every process it reaped (user + system, from
 * this process's children fields in /proc/self/stat). Its stderr is printed
 * only when it fails.
 */
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { packageRoot } from '../src/core/package-info.js';
import { reapedChildSeconds } from '../src/core/host-noise.js';

/** The CLI, as `npx inferbench` runs it. */
const CLI = join(packageRoot(), 'dist', 'src', 'cli', 'main.js');

export interface TimedCommand {
  readonly code: number | null;
  readonly wallS: number;
  /** null where /proc/self/stat cannot be read (not Linux). */
  readonly cpuS: number | null;
}

export async function timeCli(args: readonly string[], options: { readonly cwd?: string; readonly env?: NodeJS.ProcessEnv } = {}): Promise<TimedCommand> {
  const before = reapedChildSeconds();
  const started = performance.now();
  const code = await new Promise<number | null>((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, ...args], { cwd: options.cwd, env: options.env ?? process.env, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('error', reject);
    child.on('close', (c) => {
      if (c !== 0) process.stderr.write(stderr);
      resolve(c);
    });
  });
  const wallS = (performance.now() - started) / 1000;
  const after = reapedChildSeconds();
  return { code, wallS, cpuS: before !== null && after !== null ? after - before : null };
}
