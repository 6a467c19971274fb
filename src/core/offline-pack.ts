import { readFileSync } from 'node:fs';
import { UserError } from './errors.js';

/**
 * What an offline pack (`npm run pack:offline`) holds and what it left out,
 * read from the `pack.json` its `inferbench` launcher names in
 * `INFERBENCH_PACK`. A pack carries only the packages its engines need, so
 * an engine or a part outside it must say "left out of this pack" rather
 * than "npm install …", which cannot work on a host without npm.
 */
export interface PackManifest {
  /** Engine ids whose packages the pack holds. */
  readonly engines: readonly string[];
  /** Parts not in the pack, each with the packages it needs and what is lost without it. */
  readonly leftOut: readonly PackOmission[];
  /** Engine ids no pack can hold, with the reason (browser engines need Chromium on the host). */
  readonly unpackable?: Readonly<Record<string, string>>;
}

export interface PackOmission {
  readonly part: string;
  readonly packages: readonly string[];
  /** One line: what does not work in this pack because of it. */
  readonly effect: string;
}

/** Environment variable the pack's launcher sets to its `pack.json`. */
export const PACK_ENV = 'INFERBENCH_PACK';

let cached: { readonly path: string | undefined; readonly manifest: PackManifest | null } | undefined;

/** The manifest of the pack this process runs from, or null outside a pack (memoised per env value). */
export function offlinePack(): PackManifest | null {
  const path = process.env[PACK_ENV];
  if (cached && cached.path === path) return cached.manifest;
  let manifest: PackManifest | null = null;
  if (path) {
    try {
      const raw = JSON.parse(readFileSync(path, 'utf8')) as Partial<PackManifest>;
      manifest = {
        engines: Array.isArray(raw.engines) ? raw.engines : [],
        leftOut: Array.isArray(raw.leftOut) ? raw.leftOut : [],
        unpackable: typeof raw.unpackable === 'object' && raw.unpackable !== null ? raw.unpackable : {},
      };
    } catch {
      // A launcher pointing at no manifest is no pack: behave as an ordinary install.
      manifest = null;
    }
  }
  cached = { path, manifest };
  return manifest;
}

/** Why an engine cannot run from this pack, or null when the pack holds it (or this is no pack). */
export function engineLeftOutOfPack(id: string): { reason: string; enable: string } | null {
  const pack = offlinePack();
  if (!pack || pack.engines.includes(id)) return null;
  const never = pack.unpackable?.[id];
  if (never) return { reason: `not in any offline pack: ${never}`, enable: 'run it from an npm install of inferbench' };
  return {
    reason: `left out of this offline pack (it holds ${pack.engines.join(', ') || 'no engine'})`,
    enable: `build a pack that includes it: npm run pack:offline -- --engines ${[...pack.engines, id].join(',')} --out FILE.tar.xz`,
  };
}

/** The pack's note on a package it left out, or null when it is in the pack (or this is no pack). */
export function packageLeftOutOfPack(pkg: string): PackOmission | null {
  return offlinePack()?.leftOut.find((o) => o.packages.includes(pkg)) ?? null;
}

/**
 * The refusal of a command that reads the history (`list`, `show`,
 * `rerun`, `rm`, `compare` by id) in a pack built without it, saying so
 * and how to build one with it, instead of "no benchmarks yet" over a
 * history that can never exist there; null with the history, or outside a pack.
 */
export function historyLeftOutOfPack(command: string): UserError | null {
  const pack = offlinePack();
  const omission = packageLeftOutOfPack('@duckdb/node-api');
  if (!pack || !omission) return null;
  return new UserError(
    `this offline pack has no history: ${omission.part} is left out of it, and inferbench ${command} reads the history`,
    `build a pack with the history: npm run pack:offline -- --engines ${pack.engines.join(',') || '<engines>'} --with-history --out FILE.tar.xz; without it every run folder is still complete (compare two folders by path: inferbench compare <run folder> <run folder>)`,
  );
}
