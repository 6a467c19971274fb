/**
 * `inferbench tune`: each engine's candidate configurations searched by
 * successive halving (src/runs/tune-search.ts), every rung an ordinary run
 * of the classify scenario, the last one recorded in the history with its
 * report, followed by the answer per engine and batch size and the
 * `--engine-options` flag that reproduces it (reports/tune-report.ts), and
 * tune.csv beside its results.
 */
import { join } from 'node:path';
import { DEFAULT_OUT_DIR, prepareOutputFolder } from '../core/output-folder.js';
import { replaceFile } from '../core/temporaries.js';
import { UserError } from '../core/errors.js';
import { stringFlag, type ParsedArgs } from './args.js';
import { runRecorded, scenarioFlags } from './scenario-cli.js';
import { screenLayout } from './terminal-width.js';
import { CLASSIFY_SCENARIO } from '../scenarios/classify/classify-scenario.js';
import { classifyConfigFromFlags, commandLine } from '../scenarios/classify/classify-cli.js';
import { finishSearch, searchRungs, tuneCandidates, type TuneSearch } from '../runs/tune-search.js';
import { renderTuneCsv, tuneBest, tuneLines } from '../../reports/tune-report.js';
import type { RunRecord } from '../core/results.js';
import type { EngineRegistry } from '../core/engine-registry.js';

export async function tuneCommand(args: ParsedArgs, registry: EngineRegistry): Promise<number> {
  const out = stringFlag(args, 'out') ?? DEFAULT_OUT_DIR;
  await prepareOutputFolder(out);
  if (stringFlag(args, 'engines') === undefined) throw new UserError('tune needs --engines: the engines whose options to search', 'add --engines onnx-cpu,onnx-wasm (see `inferbench engines --options ID` for what each takes)');
  const base = classifyConfigFromFlags(scenarioFlags(CLASSIFY_SCENARIO, args, out, registry), registry);
  const engines = base.engines ?? [];
  const candidates = tuneCandidates(engines, base.engineOptions ?? []);
  const layout = screenLayout(args);
  const say = (line: string): void => {
    if (args.flags['quiet'] !== true) process.stderr.write(`inferbench tune: ${line}\n`);
  };
  say(`${candidates.length} candidates: ${engines.map((e) => `${e} ${candidates.filter((c) => c.engine === e).length}`).join(', ')}`);
  const [{ executeRun }, { BUILTIN_LAUNCHERS }] = await Promise.all([import('../scenarios/classify/classify-run.js'), import('../runs/builtin-launchers.js')]);
  const controller = new AbortController();
  const stop = (): void => controller.abort();
  process.once('SIGINT', stop);
  let search: TuneSearch;
  try {
    search = await searchRungs(base, candidates, {
      signal: controller.signal,
      onRung: say,
      execute: async (config) => (await executeRun(config, { signal: controller.signal, registry, launchers: BUILTIN_LAUNCHERS })).record,
    });
  } finally {
    process.removeListener('SIGINT', stop);
  }
  const { engineOptions: _extra, ...rest } = base;
  const last = search.rungs[search.rungs.length - 1];
  say(`rung ${search.rungs.length}/${search.rungs.length} (the full stop rule): ${search.finalists.length} candidates`);
  const final = { ...rest, engines: search.finalists, tune: { method: 'successive halving' as const, engines, candidates: candidates.length, rungs: search.rungs.length }, ...(last ? { rounds: last.rounds, stop: last.stop } : {}) };
  const answer = (record: RunRecord) => {
    finishSearch(search, record);
    return tuneBest(record, search.candidates);
  };
  // The last rung is a run like any other, through the one path every scenario's command takes, with tune.csv and the answer added.
  return runRecorded(CLASSIFY_SCENARIO, commandLine, final, {
    out: final.out,
    finished: async (outcome) => {
      await replaceFile(join(outcome.dir, 'tune.csv'), renderTuneCsv(search.candidates, answer(outcome.record)));
    },
    lines: (record) => [...tuneLines(answer(record), search, layout.width), `Wrote tune.csv beside results.json (every candidate and the rung it was dropped in).`],
  }, args, registry);
}
