/**
 * Runs each engine's generation group in a fresh Node process, as `run`
 * does for classification, so one engine's allocations never inflate
 * another's peak memory and a crash becomes an errored cell.
 */
import { fileURLToPath } from 'node:url';
import type { GenerationCell, GenerationCellKey } from '../core/generation-results.js';
import type { GenerationGroupRunner, ResolvedGenerationSweep } from '../scenarios/generate/generation-sweep.js';
import { forkChild } from './fork-child.js';

const CHILD_ENTRY = fileURLToPath(new URL('./generation-child.js', import.meta.url));

/** What a generation child rebuilds its group from: plain JSON only. */
export interface GenerationChildJob {
  /** Decoder folder; null for the embedded default decoder. */
  readonly modelDir: string | null;
  readonly engine: string;
  /** Which round of its keys this load measures, from 0. */
  readonly round: number;
  readonly threads: number | null;
  readonly keys: readonly GenerationCellKey[];
  readonly sweep: ResolvedGenerationSweep;
  readonly texts: readonly string[];
  readonly engineModules: readonly string[];
}

const keyId = (k: GenerationCellKey): string => `${k.engine}|${k.batchSize}|${k.promptLength}|${k.newTokens}`;

/** A group runner that forks one child per engine load (one per engine and round). */
export function generationChildLauncher(source: { readonly modelDir: string | null; readonly engineModules?: readonly string[] }): GenerationGroupRunner {
  return (group, hooks) =>
    forkChild<GenerationChildJob, GenerationCellKey, GenerationCell>(
      {
        entry: CHILD_ENTRY,
        job: {
          modelDir: source.modelDir,
          engine: group.engine,
          round: group.round,
          threads: group.threads,
          keys: group.keys,
          sweep: group.sweep,
          texts: group.texts,
          engineModules: source.engineModules ?? [],
        },
        keys: group.keys,
        keyId,
        resultId: keyId,
        failed: (key, reason) => ({ ...key, state: 'errored', reason }),
      },
      { onStart: hooks.onStart, onResult: hooks.onCell },
      group.signal,
    );
}
