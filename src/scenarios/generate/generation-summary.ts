/**
 * The figures of a generation cell from its calls: TTFT over calls, TPOT
 * over every later token, rates over totals, peak memory. Pure, so a cell of
 * one round and a cell of all its rounds are summarized alike.
 */
import type { CompletedGenerationCell, GenerationCellKey, GenerationSample } from './generation-results.js';
import { computeStatistics } from '../../core/statistics.js';

/** Aggregates the calls of one cell: TTFT over calls, TPOT over every later token, rates over totals. */
export function summarizeGenerationCell(key: GenerationCellKey, samples: readonly GenerationSample[]): Omit<CompletedGenerationCell, 'state' | 'session' | 'openMs' | 'warmupRuns'> {
  const ttft = computeStatistics(samples.map((s) => s.firstTokenMs));
  const rest = samples.flatMap((s) => s.restTokenMs);
  const restTotal = rest.reduce((a, b) => a + b, 0);
  const gpu = samples.flatMap((s) => s.gpuBytesPerToken ?? []).filter((v): v is number => v !== null);
  return {
    ...key,
    samples,
    ttft,
    tpot: rest.length > 0 ? computeStatistics(rest) : null,
    decodeTokensPerSecond: restTotal > 0 ? (key.batchSize * rest.length * 1000) / restTotal : null,
    prefillTokensPerSecond: ttft.total > 0 ? (key.batchSize * key.promptLength * samples.length * 1000) / ttft.total : 0,
    // The exact reading at the end of each call as well as the per-token ones: a per-token reading may be up to 2 ms stale.
    peakRssBytes: Math.max(...samples.flatMap((s) => [...s.rssBytesPerToken, ...(s.peakRssBytes === undefined ? [] : [s.peakRssBytes])])),
    peakGpuBytes: gpu.length > 0 ? Math.max(...gpu) : null,
    earlyStops: samples.filter((s) => s.generatedTokens < key.newTokens).length,
  };
}
