import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';

let cached: readonly string[] | undefined;

/**
 * Names of NVIDIA GPUs visible to this process, from `nvidia-smi -L`.
 * Memoised because environment info and several engine probes ask, and
 * spawning nvidia-smi costs tens of milliseconds. Empty when there is none.
 */
export function nvidiaGpus(): readonly string[] {
  if (cached) return cached;
  if (!existsSync('/dev/nvidiactl') && !existsSync('/dev/nvidia0') && process.platform === 'linux') {
    cached = [];
    return cached;
  }
  const res = spawnSync('nvidia-smi', ['--query-gpu=name,memory.total', '--format=csv,noheader'], {
    encoding: 'utf8',
    timeout: 5000,
  });
  cached =
    res.status === 0 && typeof res.stdout === 'string'
      ? res.stdout
          .split('\n')
          .map((l) => l.trim())
          .filter((l) => l.length > 0)
      : [];
  return cached;
}

/**
 * GPU memory this process holds, summed over GPUs, from nvidia-smi's
 * compute-apps list; null when there is no GPU or the process uses none.
 */
export function gpuMemoryOfProcess(pid: number = process.pid): number | null {
  if (nvidiaGpus().length === 0) return null;
  const res = spawnSync('nvidia-smi', ['--query-compute-apps=pid,used_memory', '--format=csv,noheader,nounits'], { encoding: 'utf8', timeout: 5000 });
  if (res.status !== 0 || typeof res.stdout !== 'string') return null;
  let mib = 0;
  for (const line of res.stdout.split('\n')) {
    const [p, used] = line.split(',').map((x) => x.trim());
    if (Number(p) === pid) mib += Number(used) || 0;
  }
  return mib > 0 ? mib * 1024 * 1024 : null;
}
