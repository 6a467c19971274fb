import { spawnSync } from 'node:child_process';
import { arch, cpus, platform, release, totalmem, availableParallelism } from 'node:os';
import { nvidiaGpus } from './gpu.js';
import { inferbenchVersion } from './package-info.js';
import type { EnvironmentInfo } from './results.js';

function gitCommit(cwd: string): string | null {
  const res = spawnSync('git', ['rev-parse', '--short=12', 'HEAD'], { cwd, encoding: 'utf8', timeout: 3000 });
  return res.status === 0 && typeof res.stdout === 'string' ? res.stdout.trim() || null : null;
}

/**
 * Host facts recorded with every run, so two result files can be told apart
 * by machine before their numbers are compared.
 */
export function collectEnvironment(cwd: string = process.cwd()): EnvironmentInfo {
  const cpuList = cpus();
  return {
    inferbenchVersion: inferbenchVersion(),
    node: process.version,
    os: `${platform()} ${release()}`,
    arch: arch(),
    cpuModel: cpuList[0]?.model.trim() ?? 'unknown',
    cores: availableParallelism(),
    memoryBytes: totalmem(),
    gpus: nvidiaGpus(),
    date: new Date().toISOString(),
    gitCommit: gitCommit(cwd),
  };
}
