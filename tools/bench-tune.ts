/**
 * `npm run bench:tune`: does `inferbench tune`'s successive halving find
 * the winner that measuring every candidate fully finds, and what does it
 * save? On bert-base's shape (`--config bert-base`, random init), onnx-cpu's
 * frozen grid plus `graphOptimizationLevel=disabled|all` (an option whose
 * effect is known: ORT's fusions make `all` faster than `disabled` on a
 * BERT graph): first `tune`, then one `run` of every candidate at the full
 * stop rule. Prints both winners (and whether `all` beat `disabled` in
 * each), and the wall and CPU seconds of each. The model is generated and
 * cached by an untimed warm-up run first.
 *
 * BENCH_TUNE_LIMIT (rows, default 16), BENCH_TUNE_MIN_TIME (s, default 1),
 * BENCH_TUNE_ROUNDS (default 2) and BENCH_TUNE_BATCH (default 1) set the
 * full stop rule both sides use.
 */
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import '../engines/registry.js';
import { timeCli } from './bench-cli-process.js';
import { tuneGrid, variantId } from '../src/core/engine-options.js';
import type { CompletedCell, RunRecord } from '../src/core/results.js';
import { acrossRounds, callDifference, roundMeansOf } from '../reports/run-comparison.js';

const LIMIT = process.env['BENCH_TUNE_LIMIT'] ?? '16';
const MIN_TIME = process.env['BENCH_TUNE_MIN_TIME'] ?? '1';
const ROUNDS = process.env['BENCH_TUNE_ROUNDS'] ?? '2';
const BATCH = process.env['BENCH_TUNE_BATCH'] ?? '1';
const EXTRA = 'onnx-cpu:graphOptimizationLevel=disabled|all';
// --max-time out of the way: its default (15 s a cell) would cut a bert-base cell on this machine to one round, and the comparison to whatever fits.
const COMMON = ['--config', 'bert-base', '--batch-sizes', BATCH, '--limit', LIMIT, '--min-time', MIN_TIME, '--min-batches', '1', '--max-time', '600', '--rounds', ROUNDS, '--no-png', '--quiet'];

/** Fastest completed cell with parity holding, by the mean of round means. */
function winner(record: RunRecord): { id: string; ms: number; byId: Map<string, number> } {
  const ok = record.cells.filter((c): c is CompletedCell => c.state === 'completed' && (!c.parity || c.parity.withinTolerance));
  const byId = new Map(ok.map((c) => [c.engine, acrossRounds(c).mean]));
  const [id, ms] = [...byId].sort((a, b) => a[1] - b[1])[0] ?? ['none', NaN];
  return { id, ms, byId };
}

function lastRecord(out: string): RunRecord {
  const dir = readdirSync(out).filter((d) => /^\d{4}-/.test(d)).sort().pop() ?? '';
  return JSON.parse(readFileSync(join(out, dir, 'results.json'), 'utf8')) as RunRecord;
}

async function main(): Promise<void> {
  const root = mkdtempSync(join(tmpdir(), 'inferbench-bench-tune-'));
  try {
    console.log(`bench:tune on bert-base shape, onnx-cpu, batch ${BATCH}, ${LIMIT} rows, min time ${MIN_TIME} s, ${ROUNDS} rounds; load average ${loadavg()[0]?.toFixed(2)} at start`);
    // Untimed: generates and caches the bert-base graph, so neither side pays for it.
    await timeCli(['run', '--config', 'bert-base', '--batch-sizes', '1', '--limit', '2', '--min-time', '0', '--min-batches', '1', '--rounds', '1', '--no-png', '--quiet', '--engines', 'onnx-cpu', '--out', join(root, 'warm')]);
    const tuneOut = join(root, 'tune');
    const tune = await timeCli(['tune', ...COMMON, '--engines', 'onnx-cpu', '--engine-options', EXTRA, '--out', tuneOut]);
    if (tune.code !== 0) throw new Error(`tune exited ${tune.code}`);
    const candidates = [...tuneGrid('onnx-cpu'), { graphOptimizationLevel: 'all' }].map((v) => variantId('onnx-cpu', v));
    const unique = [...new Set(candidates)];
    const fullOut = join(root, 'full');
    const full = await timeCli(['run', ...COMMON, '--engines', unique.join(','), '--out', fullOut]);
    if (full.code !== 0) throw new Error(`the full run exited ${full.code}`);
    const t = winner(lastRecord(tuneOut));
    const f = winner(lastRecord(fullOut));
    const order = (byId: Map<string, number>): string => {
      const all = byId.get(variantId('onnx-cpu', { graphOptimizationLevel: 'all' }));
      const disabled = byId.get(variantId('onnx-cpu', { graphOptimizationLevel: 'disabled' }));
      return all === undefined || disabled === undefined ? 'disabled dropped before the last rung' : `all ${all.toFixed(2)} ms vs disabled ${disabled.toFixed(2)} ms: ${all < disabled ? 'all faster' : 'disabled faster'}`;
    };
    console.log(`candidates: ${unique.length} (${unique.map((id) => (id === 'onnx-cpu' ? 'defaults' : id.slice('onnx-cpu '.length))).join(', ')})`);
    console.log(`tune:     winner ${t.id} ${t.ms.toFixed(2)} ms/batch; ${order(t.byId)}; ${tune.wallS.toFixed(1)} s wall, ${tune.cpuS?.toFixed(1) ?? '?'} CPU-s`);
    console.log(`full run: winner ${f.id} ${f.ms.toFixed(2)} ms/batch; ${order(f.byId)}; ${full.wallS.toFixed(1)} s wall, ${full.cpuS?.toFixed(1) ?? '?'} CPU-s`);
    // Candidates ORT treats alike (the defaults, `all`, `extended` on a CPU graph) tie within noise: a different winner is judged by the full run's own test.
    const fullRecord = lastRecord(fullOut);
    const cellOf = (id: string) => fullRecord.cells.find((c): c is CompletedCell => c.engine === id && c.state === 'completed');
    const a = cellOf(f.id);
    const b = cellOf(t.id);
    const tie = t.id !== f.id && a && b ? callDifference(roundMeansOf(a), roundMeansOf(b)) : null;
    console.log(`same winner: ${t.id === f.id ? 'yes' : `no; in the full run tune's winner against the full run's: ${tie ? `${tie.call} (${tie.note})` : 'not measured'}`}`);
    console.log(`time saved by the search: ${(full.wallS - tune.wallS).toFixed(1)} s wall (${((1 - tune.wallS / full.wallS) * 100).toFixed(0)}%); load average ${loadavg()[0]?.toFixed(2)} at end`);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

await main();
