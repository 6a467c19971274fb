/**
 * Times every `generate()` call of a text-generation model, in the manner of
 * ipex-llm's `BenchmarkWrapper`: time to first token, the time of each later
 * token, and memory at each token, printed as
 *
 *   =========First token cost 0.1234s and 3.59 GB=========
 *   =========Rest tokens cost average 0.0123s (31 tokens in all) and 3.59 GB=========
 *
 * Tokens are timestamped by a streamer (the `put`/`end` protocol of
 * transformers.js, which inferbench's own loop also follows), so the hook is
 * the same on a transformers.js model and on any engine. Per step it reads the
 * clock and, at most every 2 ms, the kernel's peak-RSS mark (PeakRssWatcher
 * says why not at every token); GPU memory comes from a background sampler.
 */
import { UserError } from '../../core/errors.js';
import { canGenerate, requireNewTokens, type GenerateArgs, type GenerationModelLike, type TokenStreamer } from '../../core/generate-args.js';
import { GpuMemoryMonitor } from '../gpu-memory.js';
import { PeakRssWatcher, type PeakRssScope } from './peak-rss-watcher.js';

/** Options of BenchmarkWrapper. */
export interface BenchmarkWrapperOptions {
  /** Print the two summary lines after each `generate()`. Default false. */
  readonly doPrint?: boolean;
  /** Also print the memory at each token. Default false. */
  readonly verbose?: boolean;
  /** Where lines go; default console.log. */
  readonly print?: (line: string) => void;
  /** Sample GPU memory with nvidia-smi when a GPU is present ('auto', the default), or never (false). */
  readonly gpuMemory?: 'auto' | false;
  /** Which memory the printed lines show: process RSS (default) or GPU memory in use. */
  readonly printMemory?: 'rss' | 'gpu';
}

/** What one `generate()` call measured. Times are in milliseconds, memory in bytes. */
export interface GenerationMeasurement {
  readonly batchSize: number;
  readonly promptTokens: number;
  /** Steps actually generated (≤ max_new_tokens when every row hit EOS early). */
  readonly newTokens: number;
  /** Time to first token: from the call to the first sampled token (prefill + first sample). */
  readonly firstTokenMs: number;
  /** Time of each later token (step i minus step i − 1). */
  readonly restTokenMs: readonly number[];
  /** Mean of restTokenMs; null when only one token was generated. */
  readonly restMeanMs: number | null;
  /** From the call until `generate()` returned. */
  readonly totalMs: number;
  /** batch × later tokens per second of their time; null with no later token. */
  readonly decodeTokensPerSecond: number | null;
  /** batch × prompt tokens / TTFT. */
  readonly prefillTokensPerSecond: number;
  /**
   * Peak RSS of the process at each token, first token first (the kernel's
   * high-water mark, read at most 2 ms before the token). Counted from the
   * wrapper's first call or its last `resetPeakMemory()` when `peakRssScope`
   * is 'since-reset' (Linux), from the start of the process otherwise.
   */
  readonly rssBytesPerToken: readonly number[];
  readonly peakRssScope: PeakRssScope;
  /** GPU memory in use at each token, when a GPU is sampled. */
  readonly gpuBytesPerToken: readonly (number | null)[] | null;
  /** Exact peak RSS when the call returned, in the scope of rssBytesPerToken. */
  readonly peakRssBytes: number;
  readonly peakGpuBytes: number | null;
}

/** Bytes as the reference output shows them: decimal gigabytes with two decimals. */
function gigabytes(bytes: number | null): string {
  return bytes === null ? 'n/a' : (bytes / 1e9).toFixed(2);
}

function maxOf(values: readonly (number | null)[]): number | null {
  let best: number | null = null;
  for (const v of values) if (v !== null && (best === null || v > best)) best = v;
  return best;
}

/**
 * Wraps a generation model (a transformers.js `AutoModelForCausalLM`,
 * inferbench's `TextGeneration`, or a `GreedyGenerator` from `model.open()`)
 * and measures each `generate()` call. Use `generate` exactly as on the
 * model; read `last` (or `firstCost` / `restCostMean`, in seconds) after.
 */
export class BenchmarkWrapper<M extends GenerationModelLike = GenerationModelLike> {
  readonly model: M;
  readonly options: BenchmarkWrapperOptions;
  /** Measurement of the latest `generate()`; null before the first. */
  last: GenerationMeasurement | null = null;
  private gpu: GpuMemoryMonitor | null | undefined;
  private rssWatcher: PeakRssWatcher | undefined;

  constructor(model: M, options: BenchmarkWrapperOptions = {}) {
    if (!canGenerate(model)) {
      const name = (model as { name?: unknown } | null)?.name;
      throw new UserError(
        `${typeof name === 'string' ? `model ${name}` : 'this model'} has no generation head: it has no generate() method`,
        'wrap a text-generation model: AutoModelForCausalLM from transformers.js, TextGeneration, or the generator model.open(engine) returns',
      );
    }
    if ((model as { can_generate?: unknown }).can_generate === false) {
      throw new UserError(
        'this transformers.js model has no generation head (can_generate is false)',
        'load it with AutoModelForCausalLM instead of AutoModel',
      );
    }
    this.model = model;
    this.options = options;
  }

  /** Seconds to the first token of the latest call, as ipex-llm's `first_cost`. */
  get firstCost(): number | null {
    return this.last ? this.last.firstTokenMs / 1000 : null;
  }

  /** Mean seconds per later token of the latest call, as ipex-llm's `rest_cost_mean`. */
  get restCostMean(): number | null {
    return this.last?.restMeanMs == null ? null : this.last.restMeanMs / 1000;
  }

  /** Calls the model's `generate()` with a timing streamer; returns what the model returns. */
  async generate(args: GenerateArgs): Promise<unknown> {
    return (await this.measure(args)).output;
  }

  /** Like `generate`, also returning the measurement (what sweeps use). */
  async measure(args: GenerateArgs): Promise<{ output: unknown; measurement: GenerationMeasurement }> {
    const maxNew = requireNewTokens(args.max_new_tokens ?? args['maxNewTokens'], 'maxNewTokens');
    const minNew = args.min_new_tokens ?? args['minNewTokens'];
    if (minNew !== undefined && minNew !== null && (typeof minNew !== 'number' || !Number.isInteger(minNew) || minNew < 0 || minNew > maxNew)) {
      throw new UserError(`minNewTokens must be a whole number from 0 to maxNewTokens (${maxNew}), got ${JSON.stringify(minNew)}`, 'pass minNewTokens = maxNewTokens to fix the output length');
    }
    if (this.gpu === undefined) this.gpu = this.options.gpuMemory === false ? null : GpuMemoryMonitor.start();
    const gpu = this.gpu;
    if (!this.rssWatcher) {
      this.rssWatcher = new PeakRssWatcher();
      this.rssWatcher.reset();
    }
    const watcher = this.rssWatcher;
    const record = new TokenRecord(maxNew + 1, watcher, gpu);
    const user = args.streamer;
    const streamer: TokenStreamer = {
      put(tokens) {
        record.put(performance.now(), tokens);
        user?.put(tokens);
      },
      end() {
        user?.end();
      },
    };
    const { maxNewTokens: _max, minNewTokens: _min, ...rest } = args as GenerateArgs & { maxNewTokens?: unknown; minNewTokens?: unknown };
    const call: GenerateArgs = { ...rest, max_new_tokens: maxNew, ...(minNew != null ? { min_new_tokens: minNew } : {}), streamer };
    // A model that opens lazily (TextGeneration) opens now, outside the timed call.
    const lazy = this.model as { ready?: () => Promise<void> };
    if (typeof lazy.ready === 'function') await lazy.ready();
    const t0 = performance.now();
    let output: unknown;
    let totalMs: number;
    let peakRss: number;
    try {
      output = await this.model.generate(call);
    } finally {
      totalMs = performance.now() - t0;
      peakRss = watcher.read();
    }
    if (record.count === 0) throw new Error('generate() produced no token (the model never called the streamer)');
    const measurement = summarize({
      t0,
      stamps: Array.from(record.stamps.subarray(0, record.count)),
      totalMs,
      batchSize: record.batchSize,
      promptTokens: record.promptTokens,
      rss: Array.from(record.rss.subarray(0, record.count)),
      peakRss,
      peakRssScope: watcher.scope(),
      gpuBytes: record.gpu ? Array.from(record.gpu.subarray(0, record.count), (v) => (Number.isNaN(v) ? null : v)) : null,
    });
    this.last = measurement;
    if (this.options.doPrint) this.printSummary(measurement);
    return { output, measurement };
  }

  /** Prints the two summary lines (and with `verbose`, memory per token) for a measurement. */
  printSummary(m: GenerationMeasurement): void {
    const print = this.options.print ?? ((line: string) => console.log(line));
    const useGpu = this.options.printMemory === 'gpu' && m.gpuBytesPerToken !== null;
    const memory = (useGpu ? m.gpuBytesPerToken : m.rssBytesPerToken) as readonly (number | null)[];
    print(`=========First token cost ${(m.firstTokenMs / 1000).toFixed(4)}s and ${gigabytes(memory[0] ?? null)} GB=========`);
    const restCount = m.restTokenMs.length;
    const restMean = m.restMeanMs === null ? 'n/a' : `${(m.restMeanMs / 1000).toFixed(4)}s`;
    print(`=========Rest tokens cost average ${restMean} (${restCount} tokens in all) and ${gigabytes(restCount > 0 ? maxOf(memory.slice(1)) : null)} GB=========`);
    if (this.options.verbose) {
      print(`Peak RSS at each token, GB: [${m.rssBytesPerToken.map((b) => gigabytes(b)).join(', ')}]`);
      if (m.gpuBytesPerToken) print(`GPU memory in use at each token, GB: [${m.gpuBytesPerToken.map(gigabytes).join(', ')}]`);
    }
  }

  /**
   * Restarts peak-RSS accounting from the current RSS (Linux), e.g. between
   * sweep cells. Call it outside timed calls: resetting costs more than
   * reading, which is why it is not done before every call.
   */
  resetPeakMemory(): PeakRssScope {
    this.rssWatcher ??= new PeakRssWatcher();
    return this.rssWatcher.reset();
  }

  /** Stops the GPU memory sampler, if one was started. */
  async dispose(): Promise<void> {
    this.gpu?.stop();
    this.gpu = undefined;
  }
}

/**
 * What the streamer records during one call, in typed arrays allocated before
 * the call: pushing onto growing JS arrays at each token made the garbage
 * collector run more often and cost ~1 % of a generate() call on the default
 * decoder, against ~0.3 % for writes into preallocated buffers.
 */
class TokenRecord {
  stamps: Float64Array;
  rss: Float64Array;
  gpu: Float64Array | null;
  count = 0;
  batchSize = 0;
  promptTokens = 0;

  constructor(
    capacity: number,
    private readonly watcher: PeakRssWatcher,
    private readonly gpuMonitor: GpuMemoryMonitor | null,
  ) {
    this.stamps = new Float64Array(capacity);
    this.rss = new Float64Array(capacity);
    this.gpu = gpuMonitor ? new Float64Array(capacity) : null;
  }

  /** The first put is the prompt; every later one is a generated step. */
  put(now: number, tokens: readonly (readonly bigint[])[]): void {
    if (this.batchSize === 0) {
      this.batchSize = tokens.length;
      this.promptTokens = tokens[0]?.length ?? 0;
      return;
    }
    if (this.count === this.stamps.length) this.grow();
    this.stamps[this.count] = now;
    this.rss[this.count] = this.watcher.at(now);
    if (this.gpu) this.gpu[this.count] = this.gpuMonitor?.latest() ?? Number.NaN;
    this.count++;
  }

  /** Only for a model that generates more than max_new_tokens, which none should. */
  private grow(): void {
    const bigger = (a: Float64Array) => {
      const b = new Float64Array(a.length * 2);
      b.set(a);
      return b;
    };
    this.stamps = bigger(this.stamps);
    this.rss = bigger(this.rss);
    if (this.gpu) this.gpu = bigger(this.gpu);
  }
}

function summarize(r: {
  t0: number;
  stamps: readonly number[];
  totalMs: number;
  batchSize: number;
  promptTokens: number;
  rss: readonly number[];
  peakRss: number;
  peakRssScope: PeakRssScope;
  gpuBytes: readonly (number | null)[] | null;
}): GenerationMeasurement {
  const firstTokenMs = (r.stamps[0] as number) - r.t0;
  const restTokenMs = r.stamps.slice(1).map((t, i) => t - (r.stamps[i] as number));
  const restTotal = restTokenMs.reduce((a, b) => a + b, 0);
  return {
    batchSize: r.batchSize,
    promptTokens: r.promptTokens,
    newTokens: r.stamps.length,
    firstTokenMs,
    restTokenMs,
    restMeanMs: restTokenMs.length > 0 ? restTotal / restTokenMs.length : null,
    totalMs: r.totalMs,
    decodeTokensPerSecond: restTokenMs.length > 0 && restTotal > 0 ? (r.batchSize * restTokenMs.length * 1000) / restTotal : null,
    prefillTokensPerSecond: firstTokenMs > 0 ? (r.batchSize * r.promptTokens * 1000) / firstTokenMs : 0,
    rssBytesPerToken: r.rss,
    peakRssScope: r.peakRssScope,
    gpuBytesPerToken: r.gpuBytes,
    peakRssBytes: Math.max(r.peakRss, ...r.rss),
    peakGpuBytes: r.gpuBytes ? maxOf(r.gpuBytes) : null,
  };
}
