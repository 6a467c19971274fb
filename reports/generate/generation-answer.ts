/**
 * The answer a generation report opens with: per configuration (batch,
 * prompt length, new tokens; only what varies is named), the engine with
 * the lowest TTFT and the one with the lowest TPOT, each with its lead over
 * the next engine (named in the table) and whether the rounds support it (the log-ratio t-test
 * on round means that run's answer and `compare` use), and the highest
 * decode tokens/s. Read from the completed cells the tables list.
 */
import type { CompletedGenerationCell, GenerationRunRecord } from '../../src/core/generation-results.js';
import type { BetweenRounds } from '../../src/core/results.js';
import { formatDuration, formatRate, formatRatio } from '../../src/core/units.js';
import { callDifference } from '../run-comparison.js';
import { paint, wrap } from '../text-table.js';
import { generationThreadsUsed } from './generation-comparison.js';

/** `onnx-cpu 2.1 ms (1.4× ahead)` (with `, not significant` when the rounds do not support it), for one figure of one group. */
function leadText(cells: readonly CompletedGenerationCell[], figure: (c: CompletedGenerationCell) => BetweenRounds | null | undefined, mean: (c: CompletedGenerationCell) => number | null, name: (c: CompletedGenerationCell) => string): string | null {
  const ranked = cells.flatMap((c) => {
    const m = mean(c);
    return m === null ? [] : [{ cell: c, mean: m }];
  }).sort((a, b) => a.mean - b.mean);
  const [best, next] = ranked;
  if (best === undefined) return null;
  const head = `${name(best.cell)} ${formatDuration(best.mean)}`;
  if (next === undefined) return head;
  const a = figure(best.cell)?.means ?? [];
  const b = figure(next.cell)?.means ?? [];
  // "slower": the next engine is slower than the best by the rounds' evidence.
  const supported = callDifference(a, b).call === 'slower';
  // The next engine is named in the table below; its lead alone keeps a configuration to two lines.
  return `${head} (${formatRatio(next.mean / best.mean)} ahead${supported ? '' : ', not significant'})`;
}

/** "Fastest per configuration (…):" and one line (or two) per configuration. */
export function generationAnswerLines(run: GenerationRunRecord, width: number, color: boolean): string[] {
  const done = run.cells.filter((c): c is CompletedGenerationCell => c.state === 'completed');
  if (done.length === 0) return [];
  const varies = (f: (c: CompletedGenerationCell) => unknown): boolean => new Set(done.map(f)).size > 1;
  // Threads are named only where one engine ran at several counts: the table gives each row's.
  const threadsVary = [...new Set(done.map((c) => c.engine))].some((e) => new Set(done.filter((c) => c.engine === e).map((c) => generationThreadsUsed(c))).size > 1);
  const name = (c: CompletedGenerationCell): string => {
    const t = generationThreadsUsed(c);
    return threadsVary ? `${c.engine} (${t === null ? 'default' : t} threads)` : c.engine;
  };
  const groups = new Map<string, CompletedGenerationCell[]>();
  for (const c of [...done].sort((x, y) => x.batchSize - y.batchSize || x.promptLength - y.promptLength || x.newTokens - y.newTokens)) {
    const where = [
      `batch ${c.batchSize}`,
      ...(varies((x) => x.promptLength) ? [`prompt ${c.promptLength}`] : []),
      ...(varies((x) => x.newTokens) ? [`new ${c.newTokens}`] : []),
      ...(varies((x) => x.model) ? [c.model] : []),
    ].join(', ');
    groups.set(where, [...(groups.get(where) ?? []), c]);
  }
  const lines = wrap('Fastest engine per configuration (mean of round means; lead over the next engine):', width).map((l) => paint(l, 'bold', color));
  for (const [where, cells] of groups) {
    const ttft = leadText(cells, (c) => c.betweenRounds?.ttft, (c) => c.ttft.mean, name);
    const tpot = leadText(cells, (c) => c.betweenRounds?.tpot, (c) => c.tpot?.mean ?? null, name);
    const decode = [...cells].filter((c) => c.decodeTokensPerSecond !== null).sort((x, y) => (y.decodeTokensPerSecond ?? 0) - (x.decodeTokensPerSecond ?? 0))[0];
    const parts = [ttft ? `TTFT ${ttft}` : '', tpot ? `TPOT ${tpot}` : '', decode ? `decode ${name(decode)} ${formatRate(decode.decodeTokensPerSecond ?? 0, ' tok/s')}` : ''].filter((p) => p !== '');
    lines.push(...wrap(`${where}: ${parts.join('; ')}`, width - 4).map((l, i) => (i === 0 ? `  ${l}` : `    ${l}`)));
  }
  return lines;
}
