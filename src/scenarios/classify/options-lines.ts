/**
 * Equal terms extended to engine options: when some rows of a run ran with
 * `--engine-options` (variant engines, `onnx-cpu [graphOptimizationLevel=disabled]`),
 * the report says which ones, what each engine gave back about its options,
 * and which options it took without honouring, so a comparison between an
 * engine at its tuned settings and another at its defaults is never read
 * as one on the same terms.
 */
import type { RunRecord } from '../../core/results.js';
import { engineOptionsOf } from '../../core/engine-options.js';
import { engineOrder, sessionOf } from '../../../reports/run-summary.js';
import { readbackText } from '../../../reports/option-columns.js';
import { wrap } from '../../../reports/text-table.js';

/** The lines, or none when every row ran its engine's defaults. */
export function optionLines(run: RunRecord, width: number): string[] {
  const engines = engineOrder(run);
  const variants = engines.filter((e) => engineOptionsOf(e) !== '');
  if (variants.length === 0) return [];
  const defaults = engines.filter((e) => engineOptionsOf(e) === '');
  const head =
    `Engine options: ${variants.length} engine variant${variants.length === 1 ? '' : 's'} ran non-default options (--engine-options); ` +
    (defaults.length === 0 ? 'no row ran its engine\'s defaults.' : `${defaults.join(', ')} ran ${defaults.length === 1 ? 'its' : 'their'} engine's defaults.`);
  const lines = wrap(head, width);
  for (const engine of variants) {
    const sessions = run.cells.filter((c) => c.engine === engine).map(sessionOf).filter((s) => s !== undefined);
    const readback = [...new Set(sessions.map((s) => readbackText(s.optionReadback) ?? ''))].filter((t) => t !== '');
    const ignored = [...new Set(sessions.flatMap((s) => s.ignoredOptions ?? []))];
    const parts = [readback.length > 0 ? `read back ${readback.join(' / ')}` : 'nothing read back', ...ignored.map((i) => `IGNORED: ${i}`)];
    lines.push(...wrap(`${engine}: ${parts.join('; ')}`, width - 2).map((l) => `  ${l}`));
  }
  return lines;
}
