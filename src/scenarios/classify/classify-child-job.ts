/**
 * The classification scenario's child job: both halves of running one load
 * group in a fresh process, so one engine's allocations and crashes never
 * touch another's figures. The parent half turns a group into plain data
 * (`classifyChildRunner`); the child half (registered as 'classify')
 * re-creates the model and the rows from it, loads one engine and measures
 * one round at every batch size. The process mechanics are the launcher's.
 */
import type { CellKey } from '../../core/results.js';
import type { StopRule } from '../../core/stop-rule.js';
import { modelFromSpec } from '../../models/model-from-spec.js';
import type { ModelSpec } from '../../models/model-spec.js';
import { registerChildJob, type IsolatedLaunch } from '../child-jobs.js';
import { measureLoadGroup, prepareData, prepareFn, type GroupHooks, type LoadGroup } from './load-group.js';
import type { MeasuredRound } from './measure-cell.js';

/** What a child needs to rebuild a group's model and rows, since functions and objects cannot cross. */
export interface ChildSource {
  readonly model: ModelSpec;
  /** Dataset path or id; null for the embedded default. */
  readonly dataset: string | null;
  readonly textColumn: string | null;
  readonly labelColumn: string | null;
  readonly limit: number | null;
  /** Rows at the start of the dataset left out (a static-INT8 variant's calibration rows). */
  readonly skipRows: number;
}

/** One load of one engine at one thread count, measuring one round at every batch size, in a child process. */
export interface IsolatedJob extends ChildSource {
  readonly engine: string;
  readonly threads: number | null;
  readonly keys: readonly CellKey[];
  /** This round's share of the cell's stop rule. */
  readonly stop: StopRule;
  readonly warmupBatches: number;
  readonly parityRows: number;
  /** `run --profile`: the round whose cells get a profiled pass; absent: none. */
  readonly profileRound?: number | null;
  /** Which round this process measures, from 0. */
  readonly round: number;
}

const keyId = (key: CellKey): string => String(key.batchSize);

/** Runs one job in a child through `launch`; cells the child did not finish come back errored with the way it ended. */
export function runInChild(job: IsolatedJob, hooks: GroupHooks, signal: AbortSignal | undefined, launch: IsolatedLaunch): Promise<void> {
  return launch<CellKey, MeasuredRound>(
    {
      kind: 'classify',
      payload: job,
      keys: job.keys,
      keyId,
      resultId: (measured) => keyId(measured.key),
      failed: (key, reason) => ({ kind: 'failed', key, cell: { ...key, state: 'errored', reason } }),
    },
    { onStart: hooks.onStart, onResult: hooks.onMeasured },
    signal,
  );
}

/** Runs each round of each load group in a fresh process (see `runInChild`). */
export function classifyChildRunner(source: ChildSource, launch: IsolatedLaunch): (group: LoadGroup, hooks: GroupHooks) => Promise<void> {
  return (group, hooks) =>
    runInChild(
      {
        ...source,
        engine: typeof group.engine === 'string' ? group.engine : group.engine.id,
        threads: group.threads,
        keys: group.keys,
        stop: group.settings.stop,
        warmupBatches: group.settings.warmupBatches,
        parityRows: group.settings.parityRows,
        ...(group.settings.profileRound != null ? { profileRound: group.settings.profileRound } : {}),
        round: group.round,
      },
      hooks,
      group.signal,
      launch,
    );
}

registerChildJob<IsolatedJob, CellKey, MeasuredRound>('classify', async (job, io) => {
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
      settings: { stop: job.stop, warmupBatches: job.warmupBatches, parityRows: job.parityRows, profileRound: job.profileRound ?? null },
      registry: io.registry,
      signal: io.signal,
      round: job.round,
      isolation: 'isolated',
    },
    { onStart: io.start, onMeasured: io.result },
  );
});
