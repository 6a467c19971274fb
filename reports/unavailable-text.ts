/**
 * The engines a sweep left out because they cannot run here, for the
 * terminal report of every recorded command (run, generate, train, load).
 * A default run measures "every available engine", so without these lines a
 * missing tfjs-node (not built) or CUDA (no GPU) would drop out of the
 * report without a word; results.json records them in
 * `config.unavailableEngines`.
 */
import { groupByReason } from './cell-names.js';
import { wrap } from './text-table.js';

interface Unavailable {
  readonly id: string;
  readonly reason: string;
}

function isUnavailable(v: unknown): v is Unavailable {
  return typeof v === 'object' && v !== null && typeof (v as Unavailable).id === 'string' && typeof (v as Unavailable).reason === 'string';
}

/**
 * `- not run here:` and one entry per distinct reason with the engines it
 * applies to, each wrapped to `width`, or nothing when every engine could run.
 */
export function unavailableLines(run: { readonly config: Readonly<Record<string, unknown>> }, width = Infinity): string[] {
  const listed = run.config['unavailableEngines'];
  const entries = Array.isArray(listed) ? listed.filter(isUnavailable) : [];
  if (entries.length === 0) return [];
  const groups = groupByReason(entries, (e) => e.reason.replace(/^unavailable: /, ''), (e) => e.id);
  return [
    ...wrap('- not run here (unavailable on this machine; `inferbench engines` lists them all):', width),
    ...groups.flatMap(({ reason, cells }) => wrap(`${cells.join(', ')}: ${reason}`, width - 4).map((l, i) => `${i === 0 ? '  - ' : '    '}${l}`)),
  ];
}
