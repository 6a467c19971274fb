/**
 * Body of an isolated cell process (cell-child.ts is the entry, which
 * watches the parent first). It re-creates the model and the
 * dataset from the job, loads one engine, measures every batch size and
 * sends each measured cell back; the parent turns a crash into an errored
 * cell and goes on with the sweep.
 */
import { UserError } from '../core/errors.js';
import { registerEngineModules } from './engine-modules.js';
import type { ChildMessage, ParentMessage } from './isolated-job.js';
import { modelFromSpec } from '../models/model-from-spec.js';
import { measureLoadGroup, prepareData, prepareFn } from '../scenarios/classify/load-group.js';
import { defaultRegistry } from '../../engines/registry.js';

const controller = new AbortController();

function send(message: ChildMessage): Promise<void> {
  return new Promise((resolve) => {
    if (!process.send) return resolve();
    process.send(message, undefined, {}, () => resolve());
  });
}

process.on('SIGINT', () => controller.abort());
// The parent is gone (e.g. a second Ctrl-C): nobody will read our results, so stop at once.
process.on('disconnect', () => process.exit(130));
process.on('message', (message: ParentMessage) => {
  if (message.type === 'abort') {
    controller.abort();
    return;
  }
  const { job } = message;
  void (async () => {
    try {
      await registerEngineModules(job.engineModules);
      const model = await modelFromSpec(job.model);
      const data = await prepareData(
        { dataset: job.dataset ?? undefined, limit: job.limit, textColumn: job.textColumn ?? undefined, labelColumn: job.labelColumn ?? undefined },
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
          signal: controller.signal,
          round: job.round,
        },
        {
          onStart: (key) => void send({ type: 'cell-start', key }),
          onMeasured: (measured) => send({ type: 'measured', measured }),
        },
      );
      await send({ type: 'done' });
      process.exit(0);
    } catch (err) {
      await send({
        type: 'fatal',
        message: err instanceof Error ? err.message : String(err),
        userError: err instanceof UserError,
        ...(err instanceof UserError && err.fix ? { fix: err.fix } : {}),
      });
      process.exit(1);
    }
  })();
});
