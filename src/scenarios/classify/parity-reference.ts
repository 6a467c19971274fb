/**
 * Where a sweep's parity reference outputs come from, and why they are
 * missing when they are: the reference engine's own cell in the sweep (its
 * first round's warm pass), or an untimed pass on the reference engine when
 * it is not in the sweep. A reference that fails to open is not swallowed:
 * every cell then names the failure in `parityUnavailable`.
 */
import { describeError } from '../../core/errors.js';
import type { EngineSession } from '../../core/engine-session.js';
import { compareOutputs, type RowOutputs } from '../../core/parity.js';
import type { CellKey, CellResult, CompletedCell } from '../../core/results.js';
import { referencePass } from './measure-cell.js';
import type { ReferenceSource } from './open-group.js';

/** Reference outputs, or the reason there are none. */
export type ReferenceOutputs = { readonly outputs: RowOutputs } | { readonly missing: string };

export class ParityReference {
  private session: Promise<{ session: EngineSession } | { error: string }> | undefined;
  private readonly cache = new Map<number, ReferenceOutputs>();

  constructor(
    /** Reference engine id; null when parity is off. */
    readonly reference: string | null,
    private readonly tolerance: number,
    /** How the reference runs its own pass when it is not in the sweep; null when it cannot (then cells say so). */
    private readonly source: ReferenceSource | null = null,
  ) {}

  /**
   * A finished cell with its parity: against `fromSweep` (the reference
   * engine's own cell at this batch size) when the reference is in the
   * sweep, else against an untimed pass on it. The reference's own cells,
   * and every cell when parity is off, carry none.
   */
  async check(cell: CellResult, own: { readonly outputs: RowOutputs } | null, fromSweep: ReferenceOutputs | null): Promise<CellResult> {
    if (cell.state !== 'completed') return cell;
    if (this.reference === null) return this.withParity(cell, own, 'off');
    if (cell.engine === this.reference) return this.withParity(cell, own, 'self');
    return this.withParity(cell, own, await this.outputsAt(cell.batchSize, fromSweep));
  }

  /**
   * Reference outputs at a batch size: `fromSweep` when the reference
   * engine is in the sweep, else an untimed pass on it through the source.
   */
  private async outputsAt(batchSize: number, fromSweep: ReferenceOutputs | null): Promise<ReferenceOutputs> {
    const reference = this.reference as string;
    if (fromSweep) return 'outputs' in fromSweep ? fromSweep : { missing: `reference ${reference} has no outputs at batch ${batchSize} (${fromSweep.missing})` };
    const cached = this.cache.get(batchSize);
    if (cached) return cached;
    const source = this.source;
    if (source === null) return { missing: `reference ${reference} is not in the sweep and cannot run a pass of its own here` };
    this.session ??= source.open().then(
      (session) => ({ session }),
      (err: unknown) => ({ error: describeError(err) }),
    );
    const opened = await this.session;
    let result: ReferenceOutputs;
    if ('error' in opened) {
      result = { missing: `reference ${reference} failed to open: ${opened.error}` };
    } else {
      const key: CellKey = { model: source.modelName, engine: reference, batchSize, requestedThreads: null };
      try {
        const pass = await referencePass(key, opened.session, source.context(key));
        result = pass ? { outputs: pass.outputs } : { missing: `reference ${reference} was not run at batch ${batchSize} (interrupted)` };
      } catch (err) {
        result = { missing: `reference ${reference} failed at batch ${batchSize}: ${describeError(err)}` };
      }
    }
    this.cache.set(batchSize, result);
    return result;
  }

  /**
   * Adds parity with the reference to a completed cell; the reference
   * engine's own cells carry none. (Accuracy is the cell's own, counted over
   * a whole pass when its rounds were assembled.)
   */
  withParity(cell: CellResult, first: { readonly outputs: RowOutputs } | null, reference: ReferenceOutputs | 'self' | 'off'): CellResult {
    if (cell.state !== 'completed') return cell;
    const base: CompletedCell = cell;
    if (reference === 'self') return { ...base, parity: null };
    // Parity turned off on purpose (--reference none) is not a failure to report on every cell.
    if (reference === 'off') return { ...base, parity: null };
    if ('missing' in reference) return { ...base, parity: null, parityUnavailable: reference.missing };
    if (!first) return { ...base, parity: null, parityUnavailable: 'this cell kept no outputs of its warm pass' };
    const parity = compareOutputs(reference.outputs, first.outputs, this.reference as string, this.tolerance);
    return parity ? { ...base, parity } : { ...base, parity: null, parityUnavailable: `no output in common with reference ${this.reference}` };
  }

  async dispose(): Promise<void> {
    const opened = await this.session?.catch(() => null);
    this.session = undefined;
    if (opened && 'session' in opened) await opened.session.dispose().catch(() => {});
  }
}
