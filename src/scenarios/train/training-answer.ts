/**
 * The answer a training report opens with: per model, sequence length and
 * batch size (only what varies is named), the engine with the shortest
 * step, its lead over the next engine, and whether the rounds support it
 * (the log-ratio t-test on round means that run's answer and `compare`
 * use). Read from the completed cells the tables list.
 */
import type { CompletedTrainingCell, TrainingRunRecord } from './training-results.js';
import { formatDuration, formatRate, formatRatio } from '../../core/units.js';
import { callDifference } from '../../../reports/run-comparison.js';
import { paint, wrap } from '../../../reports/text-table.js';

/** "Fastest step per batch size (…):" and one line per group. */
export function trainingAnswerLines(run: TrainingRunRecord, width: number, color: boolean): string[] {
  const done = run.cells.filter((c): c is CompletedTrainingCell => c.state === 'completed');
  if (done.length === 0) return [];
  const varies = (f: (c: CompletedTrainingCell) => unknown): boolean => new Set(done.map(f)).size > 1;
  // Threads are named only where one engine ran at several counts: the table gives each row's.
  const threadsVary = [...new Set(done.map((c) => c.engine))].some((e) => new Set(done.filter((c) => c.engine === e).map((c) => c.session.threads)).size > 1);
  const name = (c: CompletedTrainingCell): string => (threadsVary ? `${c.engine} (${c.session.threads ?? 'default'} threads)` : c.engine);
  const groups = new Map<string, CompletedTrainingCell[]>();
  for (const c of [...done].sort((x, y) => x.model.localeCompare(y.model) || (x.sequenceLength ?? 0) - (y.sequenceLength ?? 0) || x.batchSize - y.batchSize)) {
    const where = [...(varies((x) => x.model) ? [c.model] : []), ...(c.sequenceLength !== null && varies((x) => x.sequenceLength) ? [`seq ${c.sequenceLength}`] : []), `batch ${c.batchSize}`].join(', ');
    groups.set(where, [...(groups.get(where) ?? []), c]);
  }
  const lines = wrap('Fastest training step per batch size (mean step time; lead over the next):', width).map((l) => paint(l, 'bold', color));
  for (const [where, cells] of groups) {
    const [best, next] = [...cells].sort((a, b) => a.stepTime.mean - b.stepTime.mean);
    if (best === undefined) continue;
    const head = `${name(best)} ${formatDuration(best.stepTime.mean)} a step (${formatRate(best.samplesPerSecond, ' samples/s')})`;
    // "slower": the next engine's steps are longer by the rounds' evidence.
    const lead = next === undefined ? ', the only engine measured' : `, ${formatRatio(next.stepTime.mean / best.stepTime.mean)} ahead of ${name(next)}${callDifference(best.betweenRounds.means, next.betweenRounds.means).call === 'slower' ? '' : ', not significant'}`;
    lines.push(...wrap(`${where}: ${head}${lead}`, width - 4).map((l, i) => (i === 0 ? `  ${l.replace(name(best), paint(name(best), 'green', color))}` : `    ${l}`)));
  }
  return lines;
}
