/**
 * `run --profile`: one untimed, profiled pass over a cell's rows, after the
 * timed loop of its last round, on the same open in the same process. Each
 * batch is timed as the timed loop times it (`runTimed`), so the profiled
 * engine time sits beside the timed mean and the instrument's overhead shows;
 * the engine's own instrument says which op took what (op-profile.ts). No
 * figure of the timed statistics is read or changed here.
 */
import { describeError } from '../../core/errors.js';
import type { CellKey } from '../../core/results.js';
import { runTimed, type EngineSession, type OpProfiler } from '../../core/engine-session.js';
import { summarizeProfile, unattributedProfile, type CellProfile, type ProfiledBatch } from '../../core/op-profile.js';
import type { TensorMap } from '../../core/tensor.js';
import type { Dataset, DataRow } from '../../../datasets/dataset.js';

/** What the pass needs of the round's context (measure-cell.ts's MeasureContext has these). */
export interface PassRows {
  readonly dataset: Dataset;
  readonly prepare: (rows: readonly DataRow[]) => TensorMap | Promise<TensorMap>;
  readonly signal: AbortSignal | undefined;
}

/** The source of a row whose engine has no instrument. */
const NO_INSTRUMENT = 'none';

/** Runs every row of the cell once through `run`, timing each batch; stops early on Ctrl-C. */
async function pass(key: CellKey, ctx: PassRows, run: Pick<EngineSession, 'run' | 'prepareCall' | 'innerForwardMs'>): Promise<ProfiledBatch[]> {
  const batches: ProfiledBatch[] = [];
  for await (const rows of ctx.dataset.batches(key.batchSize)) {
    if (ctx.signal?.aborted) break;
    const timed = await runTimed(run, await ctx.prepare(rows));
    // A pipeline's engine time is its own forward, as the timed loop reports it.
    const forward = run.innerForwardMs?.();
    batches.push({ engineMs: typeof forward === 'number' ? forward : timed.endedAt - timed.startedAt, items: rows.length });
  }
  return batches;
}

/** The source as rows print it: a WebGPU adapter's label is added, so a software adapter keeps its label here too. */
function withAdapter(source: string, session: EngineSession): string {
  const adapter = session.describe().adapter;
  return adapter ? `${source} on ${adapter.label}` : source;
}

/**
 * The cell's profile: the engine's instrument over one pass of the rows
 * (after a warm pass of its own when the instrument is a fresh session).
 * An engine without an instrument, or one that fails, still gets a profile
 * (the pass's engine time, unattributed, with the reason), never a lost cell.
 */
export async function profilePass(key: CellKey, session: EngineSession, ctx: PassRows): Promise<CellProfile> {
  if (!session.profiler) {
    const batches = await pass(key, ctx, session);
    return unattributedProfile(NO_INSTRUMENT, `${key.engine} has no op-level instrument in inferbench`, batches);
  }
  let profiler: OpProfiler;
  try {
    profiler = await session.profiler();
  } catch (err) {
    return unattributedProfile(NO_INSTRUMENT, `the profiler did not start: ${describeError(err)}`, await pass(key, ctx, session));
  }
  try {
    if (profiler.needsWarmPass) await pass(key, ctx, profiler.session);
    const batches = await pass(key, ctx, profiler.session);
    const capture = await profiler.finish(batches.length);
    return summarizeProfile({ ...capture, source: withAdapter(capture.source, session) }, batches);
  } catch (err) {
    return unattributedProfile(NO_INSTRUMENT, `the profiled pass failed: ${describeError(err)}`, []);
  } finally {
    await profiler.dispose().catch(() => {});
  }
}
