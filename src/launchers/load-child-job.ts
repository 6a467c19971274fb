/**
 * Body of an isolated load process (load-child.ts is the entry, which
 * watches the parent first): re-creates the model from its folder, loads
 * one engine, measures one round of the group on the rows the parent sent
 * and sends each probe back (see `loadChildLauncher`).
 */
import { defaultRegistry } from '../../engines/registry.js';
import { UserError } from '../core/errors.js';
import type { LoadCellKey } from '../core/load-results.js';
import type { TextClassification } from '../models/text-classification.js';
import { modelFromSpec } from '../models/model-from-spec.js';
import { measureServerGroup, type LoadGroupResult } from '../scenarios/load/rate-group.js';
import { registerEngineModules } from './engine-modules.js';
import { serveForkedJob } from './fork-child.js';
import type { LoadChildJob } from './load-launcher.js';

serveForkedJob<LoadChildJob, LoadCellKey, LoadGroupResult>(
  async (job, io) => {
    await registerEngineModules(job.engineModules);
    if (job.model.kind !== 'text-classification') throw new Error(`inferbench load needs a text-classification model, got a ${job.model.kind} spec`);
    // A feature-extraction spec re-creates a FeatureExtraction (a TextClassification whose sessions pool).
    const model = (await modelFromSpec(job.model)) as TextClassification;
    await measureServerGroup(
      { model, engine: job.engine, threads: job.threads, key: job.key, round: job.round, plan: job.plan, rows: job.rows, columns: job.columns, registry: defaultRegistry, signal: io.signal },
      { onStart: io.start, onResult: io.result },
    );
  },
  (err): err is UserError => err instanceof UserError,
);
