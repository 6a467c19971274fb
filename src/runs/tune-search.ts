/**
 * `inferbench tune`'s search over rungs (tune-schedule.ts). Each rung but
 * the last is an ordinary run of the classify scenario (`executeRun`: the
 * same driver, launchers, rounds and parity as `inferbench run`) over the
 * candidates still in, at that rung's share of the stop rule, written under
 * `<out>/tune-rungs/`; the last rung, the full rule over the finalists, is
 * run by the caller as a recorded run, so the history holds it like any run.
 */
import { join } from 'node:path';
import { baseEngineId, canonicalOptions, engineOptionsOf, optionCombinations, parseEngineOptions, tuneGrid, variantId } from '../core/engine-options.js';
import type { CompletedCell, RunRecord } from '../core/results.js';
import { acrossRounds } from '../../reports/run-comparison.js';
import type { RunConfig } from '../scenarios/classify/run-config.js';
import { halvingRungs, keepFaster, rungCount, survivorsAfter, type Rung, type RungScore } from './tune-schedule.js';

/** One candidate configuration of one engine, and how far it got. */
export interface TuneCandidate {
  readonly engine: string;
  /** The variant id it runs under (the engine id for its defaults). */
  readonly id: string;
  /** Canonical options; empty for the defaults. */
  readonly options: string;
  /** The last rung it ran in, from 0. */
  rungReached: number;
  /** The rung it was dropped after; null while it is in (finalists, the defaults). */
  droppedIn: number | null;
  reason: string | null;
  /** Its mean time over the defaults' in the last rung it ran, over every batch size (geometric mean). */
  ratio: number | null;
}

/** The search so far: its rungs, every candidate, and the finalists the last rung runs. */
export interface TuneSearch {
  readonly rungs: readonly Rung[];
  readonly candidates: readonly TuneCandidate[];
  readonly finalists: readonly string[];
}

/**
 * Each engine's candidates: its defaults, its frozen grid, and every
 * combination `--engine-options` gives for it, without repeats.
 */
export function tuneCandidates(engines: readonly string[], extra: readonly string[]): TuneCandidate[] {
  const given = extra.map((s) => parseEngineOptions(s, '--engine-options'));
  return engines.flatMap((engine) => {
    const all = [...tuneGrid(engine), ...given.filter((g) => g.engine === engine).flatMap((g) => optionCombinations(g.values))];
    const seen = new Set<string>();
    return all.flatMap((values) => {
      const options = canonicalOptions(values);
      if (seen.has(options)) return [];
      seen.add(options);
      return [{ engine, id: variantId(engine, values), options, rungReached: 0, droppedIn: null, reason: null, ratio: null }];
    });
  });
}

/**
 * Each candidate's score in one rung's record, against its engine's
 * defaults at each batch size: mean of round means (engine time), only for
 * cells that completed with parity (or no parity check); else why not.
 */
export function rungScores(record: RunRecord, candidates: readonly TuneCandidate[]): Map<string, RungScore> {
  const completed = (id: string, batch: number): CompletedCell | undefined => {
    const c = record.cells.find((x) => x.engine === id && x.batchSize === batch);
    return c?.state === 'completed' ? c : undefined;
  };
  const batches = [...new Set(record.cells.map((c) => c.batchSize))];
  const scores = new Map<string, RungScore>();
  for (const cand of candidates) {
    const ratios: number[] = [];
    let failed: string | null = null;
    for (const b of batches) {
      const own = completed(cand.id, b);
      const base = completed(cand.engine, b);
      const cell = record.cells.find((x) => x.engine === cand.id && x.batchSize === b);
      if (own === undefined) failed ??= `batch ${b}: ${cell?.state ?? 'not run'}${cell && cell.state !== 'completed' ? `: ${cell.reason}` : ''}`;
      else if (own.parity && !own.parity.withinTolerance) failed ??= `batch ${b}: parity failed (max |Δ| ${own.parity.maxAbsDiff.toExponential(2)} > ${own.parity.tolerance})`;
      else if (base !== undefined) ratios.push(acrossRounds(own).mean / acrossRounds(base).mean);
    }
    scores.set(cand.id, failed === null ? { ratios } : { failed });
  }
  return scores;
}

/**
 * Runs every rung but the last and returns who is left: per engine, the
 * defaults and the faster half of the rest at each rung; a candidate that
 * failed a cell or parity is dropped at once, whatever its speed.
 */
export async function searchRungs(
  base: RunConfig,
  candidates: TuneCandidate[],
  hooks: { readonly signal?: AbortSignal; readonly onRung?: (line: string) => void; readonly execute: (config: RunConfig) => Promise<RunRecord> },
): Promise<TuneSearch> {
  const engines = [...new Set(candidates.map((c) => c.engine))];
  const nonDefault = (e: string) => candidates.filter((c) => c.engine === e && c.options !== '' && c.droppedIn === null);
  const count = Math.max(1, ...engines.map((e) => rungCount(nonDefault(e).length)));
  const rungs = halvingRungs(count, { stop: base.stop, rounds: base.rounds, limit: base.limit }, Math.max(...base.batchSizes));
  for (const rung of rungs.slice(0, -1)) {
    if (hooks.signal?.aborted) break;
    const inPlay = candidates.filter((c) => c.droppedIn === null);
    hooks.onRung?.(`rung ${rung.index + 1}/${rungs.length}: ${inPlay.length} candidates, ${rung.rounds} round(s), min time ${(rung.stop.minTimeMs / 1000).toFixed(2)} s, ${rung.limit ?? 'all'} rows each`);
    const record = await hooks.execute({ ...base, engines: inPlay.map((c) => c.id), engineOptions: [], stop: rung.stop, rounds: rung.rounds, limit: rung.limit, png: false, out: join(base.out, 'tune-rungs') });
    const scores = rungScores(record, inPlay);
    for (const engine of engines) {
      const rivals = inPlay.filter((c) => c.engine === engine && c.options !== '');
      const own = new Map(rivals.map((c) => [c.id, scores.get(c.id) ?? { failed: 'not run' }] as const));
      const { dropped } = keepFaster(own, rivals.length > 2 ? survivorsAfter(rivals.length) : rivals.length);
      for (const c of inPlay.filter((x) => x.engine === engine)) {
        c.rungReached = rung.index;
        const s = scores.get(c.id);
        c.ratio = s !== undefined && 'ratios' in s && s.ratios.length > 0 ? Math.exp(s.ratios.reduce((a, r) => a + Math.log(r), 0) / s.ratios.length) : c.ratio;
        const why = dropped.get(c.id);
        if (why !== undefined) Object.assign(c, { droppedIn: rung.index, reason: why });
      }
    }
  }
  const last = rungs[rungs.length - 1] as Rung;
  for (const c of candidates) if (c.droppedIn === null) c.rungReached = last.index;
  return { rungs, candidates, finalists: candidates.filter((c) => c.droppedIn === null).map((c) => c.id) };
}

/** The engine and options of a cell's engine name: what tune's tables key on. */
export function candidateOf(engineName: string): { readonly engine: string; readonly options: string } {
  return { engine: baseEngineId(engineName), options: engineOptionsOf(engineName) };
}

/** The last rung's scores on the candidates that ran it: their ratio, and why a finalist cannot win (a failed cell or parity). */
export function finishSearch(search: TuneSearch, record: RunRecord): void {
  const finalists = search.candidates.filter((c) => c.droppedIn === null);
  const scores = rungScores(record, finalists);
  for (const c of finalists) {
    const s = scores.get(c.id);
    if (s === undefined) continue;
    if ('failed' in s) c.reason = `last rung: ${s.failed}`;
    else if (s.ratios.length > 0) c.ratio = Math.exp(s.ratios.reduce((a, r) => a + Math.log(r), 0) / s.ratios.length);
  }
}
