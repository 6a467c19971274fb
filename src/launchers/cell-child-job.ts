/**
 * Body of an isolated classification process (cell-child.ts is the entry,
 * which watches the parent first). It re-creates the model and the dataset
 * from the job, loads one engine, measures one round at every batch size
 * and sends each back; the parent turns a crash into an errored cell and
 * goes on with the sweep.
 */
import { UserError } from '../core/errors.js';
import type { CellKey } from '../core/results.js';
import { registerEngineModules } from './engine-modules.js';
import type { IsolatedJob } from './isolated-job.js';
import { serveForkedJob } from './fork-child.js';
import { modelFromSpec } from '../models/model-from-spec.js';
import { measureLoadGroup, prepareData, prepareFn } from '../scenarios/classify/load-group.js';
import type { MeasuredRound } from '../scenarios/classify/measure-cell.js';
import { defaultRegistry } from '../../engines/registry.js';

serveForkedJob<IsolatedJob, CellKey, MeasuredRound>(
  async (job, io) => {
    await registerEngineModules(job.engineModules);
    const model = await modelFromSpec(job.model);
    const data = await prepareData(
      { dataset: job.dataset ?? undefined, limit: job.limit, skipRows: job.skipRows, textColumn: job.textColumn ?? undefined, labelColumn: job.labelColumn ?? undefined },
      true,
    );
    await measureLoadGroup(
      {
        model,
        engine: job.engine,
        threads: job.threads,
        keys: job.keys,
        data,
        prepare: prepareFn(model, data.columns, undefined),
        settings: { stop: job.stop, warmupBatches: job.warmupBatches, parityRows: job.parityRows },
        registry: defaultRegistry,
        signal: io.signal,
        round: job.round,
        isolation: 'isolated',
      },
      { onStart: io.start, onMeasured: io.result },
    );
  },
  (err): err is UserError => err instanceof UserError,
);
