/**
 * `npm run bench:vendor-bundles`: what each of the build's one-file bundles
 * (tools/build.mjs VENDOR_BUNDLES, under dist/vendor/) saves against loading
 * its packages file by file, so the table keeps only entries that still pay
 * for themselves after a package update.
 *
 * Per entry, three arms, each a fresh Node process in the repository root,
 * taking turns (A B C A B C …) so the machine's drift hits all alike:
 * - A, the bundle: `require` (CommonJS) or `import()` (ES module) of the file;
 * - B, the packages: the same of each package the entry bundles, by name;
 * - C, Node alone (`-e 0`), the start every process pays anyway.
 * Figure: CPU seconds of the process (user + system, from this process's
 * children fields in /proc/self/stat), the median over BENCH_RUNS runs
 * (default 7) with min and max, after one untimed round that warms the page
 * cache.
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { reapedChildSeconds } from '../src/core/host-noise.js';
import { packageRoot } from '../src/core/package-info.js';
import { median } from './bench-passes.js';

const RUNS = Number(process.env['BENCH_RUNS'] ?? 7);

interface VendorBundle {
  readonly file: string;
  readonly format: 'cjs' | 'esm';
  readonly deps: readonly string[];
}

/** The CPU seconds of one fresh `node` running `script` (an ES module) in the repository root. */
function cpuOf(script: string): number {
  const before = reapedChildSeconds();
  const r = spawnSync(process.execPath, ['--input-type=module', '-e', script], { cwd: packageRoot(), stdio: ['ignore', 'ignore', 'pipe'], encoding: 'utf8' });
  const after = reapedChildSeconds();
  if (r.status !== 0) throw new Error(`\`node -e ${script}\` failed: ${r.stderr}`);
  if (before === null || after === null) throw new Error('no /proc/self/stat: this bench reads CPU time on Linux only');
  return after - before;
}

/** `load` of each specifier: require for CommonJS, import() for ES modules. */
function loading(format: 'cjs' | 'esm', specifiers: readonly string[]): string {
  if (format === 'cjs') return `import { createRequire } from 'node:module'; const require = createRequire(${JSON.stringify(pathToFileURL(join(packageRoot(), 'package.json')).href)}); ${specifiers.map((s) => `require(${JSON.stringify(s)});`).join(' ')}`;
  return specifiers.map((s) => `await import(${JSON.stringify(s)});`).join(' ');
}

const format = (xs: readonly number[]) => `${median(xs).toFixed(3)} (${Math.min(...xs).toFixed(3)}–${Math.max(...xs).toFixed(3)})`;

const { VENDOR_BUNDLES } = (await import(pathToFileURL(join(packageRoot(), 'tools', 'build.mjs')).href)) as { VENDOR_BUNDLES: readonly VendorBundle[] };
console.log(`bench:vendor-bundles — each bundle against its packages, ${RUNS} runs each in turn after one untimed round`);
console.log(`${cpus()[0]?.model ?? 'unknown CPU'}, ${cpus().length} cores; node ${process.version}; load average ${loadavg()[0]?.toFixed(2)} before it started\n`);
console.log('bundle'.padEnd(22), 'bundle CPU s'.padEnd(22), 'packages CPU s'.padEnd(22), 'node -e 0 CPU s'.padEnd(22), 'saved per process');
for (const entry of VENDOR_BUNDLES) {
  const bundle = join(packageRoot(), 'dist', 'vendor', entry.file);
  if (!existsSync(bundle)) {
    console.log(`${entry.file.padEnd(22)} not built (npm run build makes it)`);
    continue;
  }
  const arms = {
    bundle: loading(entry.format, [entry.format === 'cjs' ? bundle : pathToFileURL(bundle).href]),
    packages: loading(entry.format, entry.deps),
    node: '0',
  };
  const samples: Record<keyof typeof arms, number[]> = { bundle: [], packages: [], node: [] };
  for (const script of Object.values(arms)) cpuOf(script);
  for (let i = 0; i < RUNS; i++) for (const [arm, script] of Object.entries(arms) as [keyof typeof arms, string][]) samples[arm].push(cpuOf(script));
  const saved = median(samples.packages) - median(samples.bundle);
  console.log(entry.file.padEnd(22), format(samples.bundle).padEnd(22), format(samples.packages).padEnd(22), format(samples.node).padEnd(22), `${saved.toFixed(3)} s`);
}
