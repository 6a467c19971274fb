/**
 * Sweeps a text-generation model over engines × batch sizes × prompt lengths
 * × new-token counts, in interleaved rounds as `run` does: round r opens
 * every engine afresh, in an order rotated by r, and each of its cells warms
 * up with generate() calls at full output length, then times `runs` calls
 * through BenchmarkWrapper. A failing cell is recorded with its reason and
 * the sweep goes on, as in the classification sweep.
 */
import { type EngineRegistry } from '../../core/engine-registry.js';
import { CellSkip, cellFailure, describeError, UserError } from '../../core/errors.js';
import { notRunInterrupted } from '../../core/results.js';
import { interruptedBy } from '../../core/stop-cause.js';
import { readHostNoise } from '../../core/host-noise.js';
import { rotated } from '../../core/round-order.js';
import { DEFAULT_ROUNDS } from '../../core/stop-rule.js';
import { GenerationRounds } from './generation-rounds.js';
import { summarizeGenerationCell } from './generation-summary.js';
import { requirePositiveInteger } from '../../core/number-checks.js';
import { BenchmarkWrapper, type GenerationMeasurement } from './benchmark-wrapper.js';
import { requireNewTokens } from '../../core/generate-args.js';
import type { CompletedGenerationCell, GenerationCell, GenerationCellKey, GenerationSample } from './generation-results.js';
import { checkContext } from '../../models/greedy-loop.js';
import type { EngineGenerator } from '../../core/engine.js';
import type { TextGeneration } from '../../models/text-generation.js';
import { standaloneRegistry } from '../../models/standalone-registry.js';

export const DEFAULT_GENERATION_BATCH_SIZES: readonly number[] = [1, 4];
export const DEFAULT_PROMPT_LENGTHS: readonly number[] = [32, 128];
export const DEFAULT_NEW_TOKENS: readonly number[] = [32];
/** Measured calls per cell in each round (9 over the default 3 rounds). */
export const DEFAULT_GENERATION_RUNS = 3;

export { summarizeGenerationCell };
export const DEFAULT_GENERATION_WARMUP = 1;

/** Progress of a generation sweep, for a CLI line. */
export type GenerationProgress =
  | { readonly kind: 'cell-start'; readonly index: number; readonly total: number; readonly key: GenerationCellKey; readonly round: number; readonly rounds: number }
  | { readonly kind: 'cell-done'; readonly index: number; readonly total: number; readonly cell: GenerationCell };

export interface GenerationSweepOptions {
  readonly engines: readonly string[];
  readonly batchSizes?: readonly number[];
  readonly promptLengths?: readonly number[];
  readonly newTokens?: readonly number[];
  /** Measured generate() calls per cell in each round. */
  readonly runs?: number;
  /** Rounds per cell, each a fresh engine open; the interval and the verdict are across round means. Default 3, as `run`. */
  readonly rounds?: number;
  /** generate() calls at full output length before measuring. */
  readonly warmupRuns?: number;
  readonly threads?: number | null;
  /** Prompt texts, used in order and cycled; each call of a cell takes the next `batch` texts. */
  readonly texts: readonly string[];
  /** minNewTokens = maxNewTokens, so every call generates exactly newTokens (the default). */
  readonly fixedLength?: boolean;
  readonly registry?: EngineRegistry;
  readonly signal?: AbortSignal;
  readonly onProgress?: (event: GenerationProgress) => void;
  /** Called after each cell, e.g. to save partial results. */
  readonly onCell?: (cell: GenerationCell, cells: readonly GenerationCell[]) => void | Promise<void>;
  /** Where each engine's group runs; default this process. */
  readonly runGroup?: GenerationGroupRunner;
}

/** Options with every default filled in and checked. */
export interface ResolvedGenerationSweep {
  readonly batchSizes: readonly number[];
  readonly promptLengths: readonly number[];
  readonly newTokens: readonly number[];
  readonly runs: number;
  readonly rounds: number;
  readonly warmupRuns: number;
  readonly fixedLength: boolean;
}


/**
 * Fills the defaults and checks every list against the model's context, so a
 * prompt that cannot fit fails before any engine opens, naming both lengths.
 */
export function resolveGenerationSweep(
  options: Pick<GenerationSweepOptions, 'batchSizes' | 'promptLengths' | 'newTokens' | 'runs' | 'rounds' | 'warmupRuns' | 'fixedLength'>,
  contextLength: number,
  names: { batchSizes?: string; promptLengths?: string; newTokens?: string; runs?: string; rounds?: string } = {},
): ResolvedGenerationSweep {
  const list = (values: readonly number[] | undefined, fallback: readonly number[], name: string, check: (v: unknown, n: string) => number) => {
    const out = [...new Set(values ?? fallback)];
    if (out.length === 0) throw new UserError(`${name} is empty`, `give ${name} at least one value`);
    out.forEach((v) => check(v, name));
    return out;
  };
  const batchSizes = list(options.batchSizes, DEFAULT_GENERATION_BATCH_SIZES, names.batchSizes ?? 'batchSizes', requirePositiveInteger);
  const promptLengths = list(options.promptLengths, DEFAULT_PROMPT_LENGTHS, names.promptLengths ?? 'promptLengths', requirePositiveInteger);
  const newTokens = list(options.newTokens, DEFAULT_NEW_TOKENS, names.newTokens ?? 'maxNewTokens', requireNewTokens);
  checkContext(Math.max(...promptLengths), Math.max(...newTokens), contextLength);
  const runs = requirePositiveInteger(options.runs ?? DEFAULT_GENERATION_RUNS, names.runs ?? 'runs');
  const rounds = requirePositiveInteger(options.rounds ?? DEFAULT_ROUNDS, names.rounds ?? 'rounds');
  const warmupRuns = options.warmupRuns ?? DEFAULT_GENERATION_WARMUP;
  if (!Number.isInteger(warmupRuns) || warmupRuns < 0) throw new UserError(`warmup must be a whole number ≥ 0, got ${warmupRuns}`, 'pass 0 to disable warmup');
  return { batchSizes, promptLengths, newTokens, runs, rounds, warmupRuns, fixedLength: options.fixedLength ?? true };
}

function sampleOf(m: GenerationMeasurement, round: number): GenerationSample {
  return {
    firstTokenMs: m.firstTokenMs,
    restTokenMs: m.restTokenMs,
    totalMs: m.totalMs,
    round,
    generatedTokens: m.newTokens,
    rssBytesPerToken: m.rssBytesPerToken,
    peakRssBytes: m.peakRssBytes,
    peakRssScope: m.peakRssScope,
    gpuBytesPerToken: m.gpuBytesPerToken,
  };
}

/** One engine open of a generation sweep: one round of every key (batch × prompt length × new tokens) on one engine. */
export interface GenerationGroup {
  readonly model: TextGeneration;
  readonly engine: string;
  /** Which round of its cells this open measures, from 0: every round is a fresh open. */
  readonly round: number;
  readonly threads: number | null;
  readonly keys: readonly GenerationCellKey[];
  readonly sweep: ResolvedGenerationSweep;
  /** Prompt texts; every engine starts from the first, so every engine sees the same prompts. */
  readonly texts: readonly string[];
  readonly registry: EngineRegistry;
  readonly signal: AbortSignal | undefined;
}

export interface GenerationGroupHooks {
  readonly onStart: (key: GenerationCellKey) => void;
  readonly onCell: (cell: GenerationCell) => Promise<void>;
}

/** Runs one generation group somewhere (this process, a child process); injected by the run driver. */
export type GenerationGroupRunner = (group: GenerationGroup, hooks: GenerationGroupHooks) => Promise<void>;

/**
 * Opens the model on one engine and measures every key on it: warmup calls
 * at full output length, then `runs` timed calls through BenchmarkWrapper.
 * An open failure fails every key; an abort skips the keys not yet started.
 */
export async function measureGenerationGroup(group: GenerationGroup, hooks: GenerationGroupHooks): Promise<void> {
  const { model, sweep, engine } = group;
  let textCursor = 0;
  const nextTexts = (count: number): string[] => Array.from({ length: count }, () => group.texts[textCursor++ % group.texts.length] as string);
  // A stop before the open starts none: the keys are recorded as not run, at once.
  if (group.signal?.aborted) {
    for (const key of group.keys) await hooks.onCell({ ...key, state: 'skipped', reason: notRunInterrupted() });
    return;
  }
  const started = performance.now();
  let generator: EngineGenerator;
  try {
    generator = await model.openGenerator(engine, { threads: group.threads, registry: group.registry });
  } catch (err) {
    for (const key of group.keys) await hooks.onCell(failedGenerationCell(key, err));
    return;
  }
  const openMs = performance.now() - started;
  const wrapper = new BenchmarkWrapper(generator);
  try {
    for (const key of group.keys) {
      if (group.signal?.aborted) {
        await hooks.onCell({ ...key, state: 'skipped', reason: notRunInterrupted() });
        continue;
      }
      hooks.onStart(key);
      const args = (texts: string[]) => ({
        input_ids: model.promptIds(texts, key.promptLength),
        max_new_tokens: key.newTokens,
        ...(sweep.fixedLength ? { min_new_tokens: key.newTokens } : {}),
      });
      try {
        // Warmup at full output length, so every shape the timed calls meet has been seen once.
        for (let i = 0; i < sweep.warmupRuns && !group.signal?.aborted; i++) {
          await generator.generate({ ...args(nextTexts(key.batchSize)), min_new_tokens: key.newTokens });
        }
        // Peak memory of this cell's timed calls only: reset after warmup, outside any timed call.
        wrapper.resetPeakMemory();
        const before = readHostNoise(null);
        const samples: GenerationSample[] = [];
        for (let run = 0; run < sweep.runs && !group.signal?.aborted; run++) {
          samples.push(sampleOf((await wrapper.measure(args(nextTexts(key.batchSize)))).measurement, group.round));
        }
        // A stop between calls keeps the calls measured (TTFT, TPOT) as an interrupted cell; with none, the cell was not run.
        const cut = samples.length < sweep.runs;
        if (cut && samples.length === 0) {
          await hooks.onCell({ ...key, state: 'skipped', reason: `${interruptedBy()} before its first measured call` });
          continue;
        }
        const hostNoise = [{ round: group.round, before: before.noise, after: readHostNoise(before.cpu).noise }];
        await hooks.onCell({ state: 'completed', session: generator.session.describe(), openMs, warmupRuns: sweep.warmupRuns, ...summarizeGenerationCell(key, samples), hostNoise, ...(cut ? { interrupted: true } : {}) });
      } catch (err) {
        await hooks.onCell(err instanceof CellSkip ? failedGenerationCell(key, err) : { ...key, state: 'errored', reason: describeError(err), session: generator.session.describe() });
      }
    }
  } finally {
    await wrapper.dispose();
    await generator.session.dispose().catch(() => {});
  }
}

/**
 * Runs the sweep in interleaved rounds through `options.runGroup` (this
 * process by default): round r opens every engine afresh, in an order
 * rotated by r, so minute-to-minute drift on a shared machine falls on every
 * engine alike. A cell is recorded once its last round is in, in sweep
 * order; returns every cell, completed or not.
 */
export async function runGenerationSweep(model: TextGeneration, options: GenerationSweepOptions): Promise<GenerationCell[]> {
  await model.init();
  const sweep = resolveGenerationSweep(options, model.contextLength);
  if (options.texts.length === 0) throw new UserError('no prompt texts to generate from', 'pass a dataset with at least one non-empty text');
  const registry = options.registry ?? standaloneRegistry();
  const threads = options.threads ?? null;
  const runGroup = options.runGroup ?? measureGenerationGroup;
  const combos = sweep.batchSizes.flatMap((batchSize) =>
    sweep.promptLengths.flatMap((promptLength) => sweep.newTokens.map((newTokens) => ({ batchSize, promptLength, newTokens }))),
  );
  const groups = options.engines.map((engine) => ({ engine, keys: combos.map((c): GenerationCellKey => ({ model: model.name, engine, ...c, requestedThreads: threads })) }));
  const book = new GenerationRounds(groups.flatMap((g) => g.keys), sweep.rounds);
  const total = options.engines.length * combos.length;
  const cells: GenerationCell[] = [];
  const record = async (aborted: boolean): Promise<void> => {
    for (const cell of book.takeReady(aborted)) {
      cells.push(cell);
      options.onProgress?.({ kind: 'cell-done', index: cells.length - 1, total, cell });
      await options.onCell?.(cell, cells);
    }
  };
  for (let round = 0; round < sweep.rounds && !options.signal?.aborted; round++) {
    for (const g of rotated(groups, round)) {
      // After a stop, no new engine open (nor child process) starts: the cells left are recorded as not run.
      if (options.signal?.aborted) break;
      const keys = g.keys.filter((k) => book.wants(k, round));
      if (keys.length === 0) continue;
      await runGroup(
        { model, engine: g.engine, round, threads, keys, sweep, texts: options.texts, registry, signal: options.signal },
        {
          onStart: (key) => options.onProgress?.({ kind: 'cell-start', index: cells.length, total, key, round, rounds: sweep.rounds }),
          onCell: async (cell) => book.add(cell),
        },
      );
      await record(false);
    }
  }
  await record(true);
  return cells;
}

export function failedGenerationCell(key: GenerationCellKey, err: unknown): GenerationCell {
  return { ...key, ...cellFailure(err) };
}
