/**
 * Entry point of an isolated cell process. It re-creates the model and the
 * dataset from the job, loads one engine, measures every batch size and
 * sends each measured cell back; the parent turns a crash into an errored
 * cell and goes on with the sweep.
 */
import { Benchmark } from '../runs/benchmark.js';
import { UserError } from '../core/errors.js';
import { registerEngineModules } from './engine-modules.js';
import type { ChildMessage, ParentMessage } from './isolated-job.js';
import { modelFromSpec } from '../models/model-from-spec.js';

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
      const bench = new Benchmark({
        dataset: job.dataset ?? undefined,
        textColumn: job.textColumn ?? undefined,
        labelColumn: job.labelColumn ?? undefined,
        limit: job.limit,
        batchSizes: job.keys.map((k) => k.batchSize),
        stop: job.stop,
        warmup: job.warmup,
        warmupBatches: job.warmup.minBatches,
        maxCv: job.maxCv,
        parity: { reference: null, rows: job.parityRows },
        signal: controller.signal,
      });
      await bench.measureLoadGroup(model, job.engine, job.threads, job.keys, {
        onStart: (key) => send({ type: 'cell-start', key }),
        onMeasured: (measured) => send({ type: 'measured', measured }),
      });
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
