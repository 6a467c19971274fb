/**
 * The generation scenario's child job: each engine's generation group runs
 * in a fresh process, so one engine's allocations never inflate another's
 * peak memory and a crash becomes an errored cell. The parent half
 * (`generateChildRunner`) turns a group into plain data; the child half
 * (registered as 'generate') re-creates the decoder from its folder (or the
 * embedded default), opens one engine and measures every key.
 */
import type { GenerationCell, GenerationCellKey } from './generation-results.js';
import { defaultGenerator } from '../../models/default-generator.js';
import { TextGeneration } from '../../models/text-generation.js';
import { registerChildJob, type Launcher } from '../../core/launch-jobs.js';
import { measureGenerationGroup, type GenerationGroupRunner, type ResolvedGenerationSweep } from './generation-sweep.js';

/** What a generation child rebuilds its group from: plain JSON only. */
export interface GenerationChildJob {
  /** Decoder folder; null for the embedded default decoder. */
  readonly modelDir: string | null;
  readonly engine: string;
  /** Which round of its keys this open measures, from 0. */
  readonly round: number;
  readonly threads: number | null;
  readonly keys: readonly GenerationCellKey[];
  readonly sweep: ResolvedGenerationSweep;
  readonly texts: readonly string[];
}

const keyId = (k: GenerationCellKey): string => `${k.engine}|${k.batchSize}|${k.promptLength}|${k.newTokens}`;

/** A group runner that runs one child per engine open (one per engine and round) through `launch`. */
export function generateChildRunner(source: { readonly modelDir: string | null }, launch: Launcher): GenerationGroupRunner {
  return (group, hooks) =>
    launch<GenerationCellKey, GenerationCell>(
      {
        kind: 'generate',
        payload: {
          modelDir: source.modelDir,
          engine: group.engine,
          round: group.round,
          threads: group.threads,
          keys: group.keys,
          sweep: group.sweep,
          texts: group.texts,
        } satisfies GenerationChildJob,
        keys: group.keys,
        keyId,
        resultId: keyId,
        failed: (key, reason) => ({ ...key, state: 'errored', reason }),
      },
      { onStart: hooks.onStart, onResult: hooks.onCell },
      group.signal,
    );
}

registerChildJob<GenerationChildJob, GenerationCellKey, GenerationCell>('generate', async (job, io) => {
  const model = job.modelDir ? await new TextGeneration(job.modelDir).init() : await defaultGenerator();
  await measureGenerationGroup(
    { model, engine: job.engine, round: job.round, threads: job.threads, keys: job.keys, sweep: job.sweep, texts: job.texts, registry: io.registry, signal: io.signal },
    { onStart: io.start, onCell: io.result },
  );
});
