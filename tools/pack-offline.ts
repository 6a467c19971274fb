/**
 * `npm run pack:offline -- --engines a,b --out FILE.tar.xz [--with-history]`:
 * one .tar.xz that carries inferbench to a Linux x64 host with no network,
 * no npm and no Node (a cluster's GPU node). It unpacks to one folder whose
 * `inferbench` runs the bundled Node on the bundled CLI. What goes in is
 * decided by tools/pack-table.ts; pack-build.ts assembles the folder; this
 * file checks the input, compresses (tar + `xz -9 -T2`; `--xz-preset N`
 * trades size for time, and pack.json records the preset used) to a
 * temporary name beside the destination and renames it into place, so a
 * failed build never leaves a half-written pack under the asked-for name.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { createWriteStream, existsSync, mkdtempSync, readdirSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PACK_ENGINES, unpackableReason } from './pack-table.js';
import { fileSystemReason, isDiskFull, isFileSystemError } from '../src/core/fs-errors.js';
import { processAlive } from '../src/core/process-alive.js';
import { assemblePack } from './pack-build.js';

const MIB = 1024 * 1024;

/** Bad input: printed as one message and its fix, exit code 2, no stack. */
export class PackInputError extends Error {
  constructor(
    message: string,
    readonly fix: string,
  ) {
    super(message);
  }
}

export interface PackArgs {
  readonly engines: readonly string[];
  readonly out: string;
  readonly withHistory: boolean;
  /**
   * xz's preset, 0 (fastest) to 9 (smallest, the default). A lower one makes
   * a bigger pack in a fraction of the time (`-0` is about ten times faster
   * than `-9`), for a pack that is built often and shipped once, such as in
   * the tests; pack.json records it, so a pack says how it was compressed.
   */
  readonly xzPreset?: number;
}

/** The preset a pack is compressed with unless `--xz-preset` says otherwise: the smallest pack. */
export const DEFAULT_XZ_PRESET = 9;

const USAGE = 'npm run pack:offline -- --engines onnx-cpu,onnx-webgpu --out inferbench.tar.xz [--with-history] [--xz-preset 0-9]';

/** The --xz-preset value as an integer 0..9, or a PackInputError that names the range. */
function parsePreset(value: string): number {
  const n = Number(value);
  if (!/^\d+$/.test(value) || n > 9) throw new PackInputError(`--xz-preset ${value} is not an xz preset (an integer from 0 to 9)`, `pass --xz-preset 0 for the fastest build or leave it out for ${DEFAULT_XZ_PRESET}, the smallest pack`);
  return n;
}

/** Parses and checks the command line; every problem is a PackInputError. */
export function parsePackArgs(argv: readonly string[]): PackArgs {
  let engines: string[] | null = null;
  let out: string | null = null;
  let withHistory = false;
  let xzPreset = DEFAULT_XZ_PRESET;
  for (let i = 0; i < argv.length; i++) {
    const flag = argv[i] as string;
    if (flag === '--with-history') {
      withHistory = true;
      continue;
    }
    if (flag !== '--engines' && flag !== '--out' && flag !== '--xz-preset') throw new PackInputError(`unknown option ${flag}`, `usage: ${USAGE}`);
    const value = argv[++i];
    if (value === undefined || value.startsWith('--')) throw new PackInputError(`${flag} needs a value`, `usage: ${USAGE}`);
    if (flag === '--engines') engines = value.split(',').map((s) => s.trim()).filter((s) => s.length > 0);
    else if (flag === '--xz-preset') xzPreset = parsePreset(value);
    else out = value;
  }
  if (!engines || engines.length === 0) throw new PackInputError('--engines is required', `usage: ${USAGE}`);
  if (!out) throw new PackInputError('--out is required', `usage: ${USAGE}`);
  for (const id of engines) {
    const why = unpackableReason(id);
    if (why) throw new PackInputError(`engine ${id} cannot be packed: ${why}`, `pack only some of: ${Object.keys(PACK_ENGINES).join(', ')}`);
    if (!(id in PACK_ENGINES)) throw new PackInputError(`unknown engine id "${id}"`, `use one or more of: ${Object.keys(PACK_ENGINES).join(', ')}`);
  }
  if (!out.endsWith('.tar.xz')) throw new PackInputError(`--out ${out} does not end in .tar.xz`, 'name the pack FILE.tar.xz');
  // npm runs scripts in the package root; INIT_CWD is where the user typed the command.
  const abs = resolve(process.env['INIT_CWD'] ?? process.cwd(), out);
  const folder = dirname(abs);
  if (!existsSync(folder) || !statSync(folder).isDirectory()) throw new PackInputError(`the folder of --out, ${folder}, does not exist`, 'create it first or pass another --out');
  // A file really made and removed: access(W_OK) says yes to root on read-only and virtual file systems.
  const probe = join(folder, `.inferbench-pack-probe-${process.pid}`);
  try {
    writeFileSync(probe, '', { flag: 'wx' });
    rmSync(probe, { force: true });
  } catch (err) {
    const code = (err as { code?: string }).code ?? 'error';
    throw new PackInputError(`cannot write to ${folder} (${code})`, 'pass an --out in a folder you can write to');
  }
  if (existsSync(abs) && statSync(abs).isDirectory()) throw new PackInputError(`--out ${abs} is a folder`, 'pass a file name ending in .tar.xz');
  return { engines: [...new Set(engines)], out: abs, withHistory, xzPreset };
}

/** Fails with the fix when a tool the build pipes through is missing. */
export function requireTool(name: 'xz' | 'tar', fix: string): void {
  const res = spawnSync(name, ['--version'], { stdio: 'ignore' });
  if (res.error || res.status !== 0) throw new PackInputError(`${name} is not installed (or not on PATH), and the pack is compressed with it`, fix);
}

/** The stop of a pack by a signal: the build ends at once, its children killed and its files removed. */
export class PackStopped extends Error {
  constructor(readonly signal: NodeJS.Signals) {
    super(`stopped by ${signal}`);
  }
}

/**
 * tar's output through `xz -<preset> -T2` into `file`; rejects with the
 * tools' stderr on failure. On any failure (the file cannot be written, a
 * tool fails) or on `signal`, both tools are killed and every pipe between
 * them closed before it settles: a full disk used to leave tar and xz
 * blocked on their pipes, and the build hanging with them.
 */
export async function tarXz(stage: string, folder: string, file: string, preset: number = DEFAULT_XZ_PRESET, signal?: AbortSignal): Promise<void> {
  const tar = spawn('tar', ['-C', stage, '--sort=name', '--owner=0', '--group=0', '--numeric-owner', '-cf', '-', folder], { stdio: ['ignore', 'pipe', 'pipe'] });
  const xz = spawn('xz', [`-${preset}`, '-T2', '-c'], { stdio: ['pipe', 'pipe', 'pipe'] });
  const sink = createWriteStream(file);
  let errors = '';
  tar.stderr.on('data', (d: Buffer) => (errors += d.toString()));
  xz.stderr.on('data', (d: Buffer) => (errors += d.toString()));
  // A pipe closed under a killed tool reports EPIPE: expected on the way out, never an unhandled error.
  for (const s of [tar.stdout, xz.stdin, xz.stdout]) s.on('error', () => undefined);
  tar.stdout.pipe(xz.stdin);
  xz.stdout.pipe(sink);
  // Done only when both tools have exited and the file is flushed: these three events come in any order.
  const exited = (p: ChildProcess): Promise<number | null> => new Promise((done) => p.on('close', (code) => done(code)));
  const ends = [exited(tar), exited(xz)] as const;
  const written = new Promise<void>((done, fail) => {
    sink.on('close', () => done());
    sink.on('error', fail);
  });
  const stopAll = (): void => {
    for (const p of [tar, xz]) if (p.exitCode === null && p.signalCode === null) p.kill('SIGKILL');
    for (const s of [tar.stdout, xz.stdin, xz.stdout]) s.destroy();
    sink.destroy();
  };
  const stopped = new Promise<never>((_, fail) => {
    const onAbort = (): void => fail(signal?.reason instanceof Error ? signal.reason : new Error('stopped'));
    if (signal?.aborted) onAbort();
    signal?.addEventListener('abort', onAbort, { once: true });
  });
  try {
    const [tarCode, xzCode] = await Promise.race([Promise.all([ends[0], ends[1], written]), stopped]);
    if (tarCode !== 0 || xzCode !== 0) throw new Error(`tar | xz failed (tar exit ${tarCode}, xz exit ${xzCode}): ${errors.trim()}`);
  } catch (err) {
    stopAll();
    await Promise.all(ends);
    throw err;
  }
}

/** Prefix of a build's staging folder in the temporary folder: `inferbench-pack-<pid>-`, so a later build can tell a dead build's. */
const STAGE_PREFIX = 'inferbench-pack-';

/**
 * Removes what a killed build left: `.<name>.<pid>.partial` beside the
 * pack, and `inferbench-pack-<pid>-…` staging folders, where that process
 * is gone. Answers what it removed.
 */
export function sweepPackLeftovers(out: string, temp = tmpdir()): string[] {
  const removed: string[] = [];
  const sweep = (dir: string, pattern: RegExp): void => {
    let names: string[];
    try {
      names = readdirSync(dir);
    } catch {
      return;
    }
    for (const name of names) {
      const m = pattern.exec(name);
      const pid = Number(m?.[1]);
      if (!m || pid === process.pid || processAlive(pid)) continue;
      rmSync(join(dir, name), { recursive: true, force: true });
      removed.push(join(dir, name));
    }
  };
  const escaped = basename(out).replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  sweep(dirname(out), new RegExp(`^\\.${escaped}\\.(\\d+)\\.partial$`));
  sweep(temp, new RegExp(`^${STAGE_PREFIX}(\\d+)-`));
  return removed;
}

/** A file-system failure while building, as the user's error: `cannot write <path>: no space left on device`. */
function packFileError(err: unknown, out: string, stage: string): unknown {
  if (!isFileSystemError(err)) return err;
  const path = (err as { path?: string }).path;
  const staged = typeof path === 'string' && path.startsWith(stage);
  const where = staged ? path : out;
  const fix = staged
    ? 'free some space where the pack is staged (the temporary folder, TMPDIR), or set TMPDIR to a folder on another disk'
    : isDiskFull(err) ? 'free some space, or pass an --out on another disk' : 'pass an --out in a folder you can write to';
  return new PackInputError(`cannot write ${where}: ${fileSystemReason(err)}`, fix);
}

export interface PackResult {
  readonly file: string;
  readonly bytes: number;
  readonly leftOut: readonly string[];
  readonly packages: readonly string[];
  /** How it was compressed, as pack.json records it: `xz -9`. */
  readonly compression: string;
}

/** Builds the pack `args` asks for; the repository root holds dist/ and node_modules/. */
export async function buildPack(args: PackArgs, root: string, signal?: AbortSignal): Promise<PackResult> {
  requireTool('xz', 'install xz-utils (apt install xz-utils)');
  requireTool('tar', 'install GNU tar (apt install tar)');
  sweepPackLeftovers(args.out);
  const stage = mkdtempSync(join(tmpdir(), `${STAGE_PREFIX}${process.pid}-`));
  const temp = join(dirname(args.out), `.${basename(args.out)}.${process.pid}.partial`);
  try {
    const folder = basename(args.out).replace(/\.tar\.xz$/, '') || 'inferbench';
    const preset = args.xzPreset ?? DEFAULT_XZ_PRESET;
    const compression = `xz -${preset}`;
    const contents = await assemblePack({ engines: args.engines, withHistory: args.withHistory, root, stage, folder, compression });
    if (signal?.aborted) throw signal.reason;
    await tarXz(stage, folder, temp, preset, signal);
    renameSync(temp, args.out);
    return {
      file: args.out,
      bytes: statSync(args.out).size,
      leftOut: contents.manifest.leftOut.map((o) => `${o.part}: ${o.effect}`),
      packages: contents.packages,
      compression,
    };
  } catch (err) {
    throw packFileError(err, args.out, stage);
  } finally {
    rmSync(temp, { force: true });
    rmSync(stage, { recursive: true, force: true });
  }
}

async function main(): Promise<void> {
  const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
  // SIGTERM or Ctrl-C: tar and xz are killed, the .partial file and the staging folder removed, and the exit is 128 + the signal's number.
  const stop = new AbortController();
  const onSignal = (sig: NodeJS.Signals): void => stop.abort(new PackStopped(sig));
  for (const sig of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.once(sig, onSignal);
  try {
    const args = parsePackArgs(process.argv.slice(2));
    const result = await buildPack(args, root, stop.signal);
    console.log(`pack: ${result.file}`);
    console.log(`size: ${(result.bytes / MIB).toFixed(1)} MiB (${result.bytes} bytes, tar + ${result.compression})`);
    console.log(`engines: ${args.engines.join(', ')}`);
    console.log(`packages: ${result.packages.join(', ')}`);
    console.log('left out:');
    for (const line of result.leftOut) console.log(`  - ${line}`);
  } catch (err) {
    if (err instanceof PackStopped) {
      console.error(`pack stopped by ${err.signal}; its partial file and staging folder are removed`);
      process.exitCode = 128 + ({ SIGINT: 2, SIGTERM: 15, SIGHUP: 1 } as Record<string, number>)[err.signal]!;
      return;
    }
    if (err instanceof PackInputError) {
      console.error(`error: ${err.message}\nfix: ${err.fix}`);
      process.exitCode = 2;
      return;
    }
    console.error(`error: ${err instanceof Error ? err.message : String(err)}`);
    process.exitCode = 1;
  }
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) await main();
