/**
 * Body of an isolated generation process (generation-child.ts is the entry,
 * which watches the parent first): re-creates the decoder
 * from its folder (or the embedded default), loads one engine, measures
 * every key and sends each cell back (see `generationChildLauncher`).
 */
import { defaultRegistry } from '../../engines/registry.js';
import { UserError } from '../core/errors.js';
import type { GenerationCell, GenerationCellKey } from '../core/generation-results.js';
import { defaultGenerator } from '../models/default-generator.js';
import { TextGeneration } from '../models/text-generation.js';
import { measureGenerationGroup } from '../scenarios/generate/generation-sweep.js';
import { registerEngineModules } from './engine-modules.js';
import { serveForkedJob } from './fork-child.js';
import type { GenerationChildJob } from './generation-launcher.js';

serveForkedJob<GenerationChildJob, GenerationCellKey, GenerationCell>(
  async (job, io) => {
    await registerEngineModules(job.engineModules);
    const model = job.modelDir ? await new TextGeneration(job.modelDir).init() : await defaultGenerator();
    await measureGenerationGroup(
      { model, engine: job.engine, round: job.round, threads: job.threads, keys: job.keys, sweep: job.sweep, texts: job.texts, registry: defaultRegistry, signal: io.signal },
      { onStart: io.start, onCell: io.result },
    );
  },
  (err): err is UserError => err instanceof UserError,
);
