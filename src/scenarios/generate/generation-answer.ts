/**
 * The answer a generation report opens with: per configuration (batch,
 * prompt length, new tokens; only what varies is named), the engine with
 * the lowest TTFT and the one with the lowest TPOT, each with its lead over
 * the next engine (named in the table) and whether the rounds support it (the log-ratio t-test
 * on round means that run's answer and `compare` use), and the highest
 * decode tokens/s. Read from the completed cells the tables list.
 */
import type { CompletedGenerationCell, GenerationRunRecord } from './generation-results.js';
import type { BetweenRounds } from '../../core/results.js';
import { formatDuration, formatRate, formatRatio } from '../../core/units.js';
import { callDifference } from '../../../reports/run-comparison.js';
import { paint, wrap } from '../../../reports/text-table.js';
import { generationThreadsUsed } from './generation-comparison.js';

/** The best cell of one figure and `2.1 ms (1.4×)` (`1.4×?` when the rounds do not support the lead), or null when no cell has the figure. */
function lead(cells: readonly CompletedGenerationCell[], figure: (c: CompletedGenerationCell) => BetweenRounds | null | undefined, mean: (c: CompletedGenerationCell) => number | null): { readonly best: CompletedGenerationCell; readonly text: string } | null {
  const ranked = cells.flatMap((c) => {
    const m = mean(c);
    return m === null ? [] : [{ cell: c, mean: m }];
  }).sort((a, b) => a.mean - b.mean);
  const [best, next] = ranked;
  if (best === undefined) return null;
  const head = formatDuration(best.mean);
  if (next === undefined) return { best: best.cell, text: head };
  const a = figure(best.cell)?.means ?? [];
  const b = figure(next.cell)?.means ?? [];
  // "slower": the next engine is slower than the best by the rounds' evidence.
  const supported = callDifference(a, b).call === 'slower';
  // The next engine is named in the table below; its lead alone, `?` where the rounds do not support it, keeps a configuration to a line.
  return { best: best.cell, text: `${head} (${formatRatio(next.mean / best.mean)}${supported ? '' : '?'})` };
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
      // p32, n4: the table's column names (a 32-token prompt, 4 new tokens), so a configuration keeps to one line.
      ...(varies((x) => x.promptLength) ? [`p${c.promptLength}`] : []),
      ...(varies((x) => x.newTokens) ? [`n${c.newTokens}`] : []),
      ...(varies((x) => x.model) ? [c.model] : []),
    ].join(', ');
    groups.set(where, [...(groups.get(where) ?? []), c]);
  }
  const lines = wrap('Fastest engine per configuration (lead over the next; ?: the rounds do not support it):', width).map((l) => paint(l, 'bold', color));
  for (const [where, cells] of groups) {
    const ttft = lead(cells, (c) => c.betweenRounds?.ttft, (c) => c.ttft.mean);
    const tpot = lead(cells, (c) => c.betweenRounds?.tpot, (c) => c.tpot?.mean ?? null);
    const decode = [...cells].filter((c) => c.decodeTokensPerSecond !== null).sort((x, y) => (y.decodeTokensPerSecond ?? 0) - (x.decodeTokensPerSecond ?? 0))[0];
    const rate = decode ? formatRate(decode.decodeTokensPerSecond ?? 0, ' tok/s') : '';
    // Decode tokens/s follows TPOT: its winner is said beside TPOT's when they are one engine, and on its own when not.
    const tpotText = tpot ? `${tpot.text}${decode === tpot.best ? `, ${rate}` : ''}` : '';
    const decodeText = decode && decode !== tpot?.best ? `decode ${name(decode)} ${rate}` : '';
    // One engine with both the lowest TTFT and the lowest TPOT is named once.
    const parts =
      ttft && tpot && ttft.best.engine === tpot.best.engine && name(ttft.best) === name(tpot.best)
        ? [`${name(ttft.best)}: TTFT ${ttft.text}, TPOT ${tpotText}`, decodeText]
        : [ttft ? `TTFT ${name(ttft.best)} ${ttft.text}` : '', tpot ? `TPOT ${name(tpot.best)} ${tpotText}` : '', decodeText];
    lines.push(...wrap(`${where}: ${parts.filter((p) => p !== '').join('; ')}`, width - 4).map((l, i) => (i === 0 ? `  ${l}` : `    ${l}`)));
  }
  return lines;
}
