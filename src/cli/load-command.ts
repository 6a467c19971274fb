import { UserError } from '../core/errors.js';
import { enginesWithOptions } from './engine-options-flag.js';
import { interruptedBy, stopCause } from '../core/stop-cause.js';
import { parseLatencyGoal } from '../scenarios/load/latency-goal.js';
import { ARRIVAL_PROCESSES, type ArrivalProcess, type LoadRunRecord, type PeakRound } from '../scenarios/load/load-results.js';
import { checkRange } from '../core/option-ranges.js';
import { prepareOutputFolder } from '../core/output-folder.js';
import { formatDuration, formatRate } from '../core/units.js';
import { DEFAULT_OUT_DIR } from '../core/output-folder.js';
import type { LoadConfig } from '../scenarios/load/load-run.js';
import type { ScenarioCli } from './scenario-cli.js';
import type { LoadProgress } from '../scenarios/load/load-sweep.js';
import { countFlag, listFlag, numberFlag, positiveIntFlag, repeatedFlag, stringFlag, type ParsedArgs } from './args.js';
import { reportRecordedCommand, startLine } from './run-exit.js';
import { reportWidth, screenLayout, type ScreenLayout } from './terminal-width.js';
import type { EngineRegistry } from '../core/engine-registry.js';

function progressLine(event: LoadProgress): string | null {
  if (event.kind === 'cell-start') return `  round ${event.round + 1}/${event.rounds} ${event.key.engine}: opened, warming up`;
  if (event.kind === 'probe') {
    const p = event.probe;
    const s = p.summary;
    const goal = s.slo ? `, p${s.slo.percentile} ${formatDuration(s.slo.valueMs)} ${s.slo.met ? '≤' : '>'} ${s.slo.limitMs} ms` : `, p99 ${formatDuration(s.latency.p99)}`;
    const purpose = p.purpose === 'rate' ? '' : ` (${p.purpose})`;
    return `    ${event.key.engine} @ ${formatRate(p.targetRps, ' req/s')}${purpose}: achieved ${formatRate(s.achievedRps, ' req/s')}${goal}, ${s.verdict.status}${p.passed === null ? '' : p.passed ? ' pass' : ' fail'}`;
  }
  const c = event.cell;
  const interval = (r: PeakRound) => {
    const cut = r.interrupted ? `; search ${stopCause() === 'Ctrl-C' ? 'interrupted' : interruptedBy()}, the cut probe left out` : '';
    if (r.lastPass === null) return r.firstFail === null ? `no whole probe${cut}` : `none passed down to ${r.firstFail} req/s${cut}`;
    return `last pass ${r.lastPass}, first fail ${r.firstFail ?? (r.interrupted ? 'not measured' : `none up to ${r.lastPass}`)} req/s${cut}`;
  };
  const tail = c.state !== 'completed'
    ? `${c.state}: ${c.reason}`
    : c.peak?.rounds.length
      ? `peak ${c.peak.acrossRounds ? formatRate(c.peak.acrossRounds.mean, ' req/s') : 'none'} (${c.peak.rounds.map(interval).join('; ')})`
      : `${c.probes.length} rate${c.probes.length === 1 ? '' : 's'} measured`;
  return `[${event.index + 1}/${event.total}] ${c.engine}: ${tail}`;
}

/** `--rates 50,100,200`: each a number of requests per second in the rates range (zero and negatives are refused with it). */
function ratesFlag(args: ParsedArgs): number[] | undefined {
  const raw = stringFlag(args, 'rates');
  if (raw === undefined) return undefined;
  return raw.split(',').map((item) => {
    const text = item.trim();
    const value = Number(text);
    if (text === '' || !Number.isFinite(value)) throw new UserError(`--rates must be numbers of requests per second, got "${text}"`, 'e.g. --rates 50,100,200');
    return checkRange('rates', value, 'flag', { raw: text, name: '--rates' });
  });
}

/** `--arrival`, with `--burstiness` alone meaning gamma (vLLM's burstiness shapes gamma gaps). */
function arrivalFlag(args: ParsedArgs, burstiness: number | undefined): ArrivalProcess | undefined {
  const raw = stringFlag(args, 'arrival');
  if (raw === undefined) return burstiness === undefined ? undefined : 'gamma';
  const value = raw.trim().toLowerCase() as ArrivalProcess;
  if (!ARRIVAL_PROCESSES.includes(value)) throw new UserError(`--arrival must be one of ${ARRIVAL_PROCESSES.join(', ')}, got "${raw}"`, 'e.g. --arrival poisson, or --arrival gamma --burstiness 0.5');
  if (burstiness !== undefined && value !== 'gamma') throw new UserError(`--burstiness shapes gamma arrivals, but --arrival is ${value}`, 'pass --arrival gamma with --burstiness, or leave --burstiness out');
  return value;
}

const seconds = (s: number | undefined): number | undefined => (s === undefined ? undefined : s * 1000);

/**
 * `inferbench load`: check every flag before loading anything, serve each
 * engine the same arrival schedules, save after each cell, print the
 * tables and the paths written.
 */
export async function loadCommand(args: ParsedArgs, registry: EngineRegistry): Promise<number> {
  await prepareOutputFolder(stringFlag(args, 'out') ?? DEFAULT_OUT_DIR);
  const burstiness = numberFlag(args, 'burstiness', 'burstiness');
  const slo = stringFlag(args, 'slo');
  const partial: Partial<LoadConfig> = {
    models: repeatedFlag(args, 'model') ?? [],
    engines: enginesWithOptions(args, registry),
    threads: positiveIntFlag(args, 'threads', 'threads') ?? null,
    dataset: stringFlag(args, 'dataset') ?? null,
    textColumn: stringFlag(args, 'text-column') ?? null,
    limit: positiveIntFlag(args, 'limit', 'limit'),
    rates: ratesFlag(args),
    findPeak: args.flags['find-peak'] === true,
    arrival: arrivalFlag(args, burstiness),
    burstiness,
    seed: countFlag(args, 'seed', 'seed'),
    durationMs: seconds(numberFlag(args, 'duration', 'durationMs')),
    minQueries: positiveIntFlag(args, 'min-queries', 'minQueries'),
    warmupMs: seconds(numberFlag(args, 'warmup', 'warmupMs')),
    maxBatch: positiveIntFlag(args, 'max-batch', 'maxBatch') ?? null,
    maxWaitMs: numberFlag(args, 'max-wait', 'maxWaitMs') ?? null,
    slo: slo === undefined ? null : parseLatencyGoal(slo, '--slo'),
    rounds: positiveIntFlag(args, 'rounds', 'rounds'),
    out: stringFlag(args, 'out'),
    png: args.flags['no-png'] !== true,
    isolate: args.flags['no-isolate'] !== true,
  };
  const defined = Object.fromEntries(Object.entries(partial).filter(([, v]) => v !== undefined)) as Partial<LoadConfig>;
  // The run stack loads only now, every flag checked: a refused command costs what `--help` costs.
  const { loadConfig } = await import('../scenarios/load/load-run.js');
  return loadAndReport(loadConfig(defined), {}, registry, screenLayout(args));
}

/** `load`'s CLI (scenario-commands.ts): the command, and a rerun of a stored config, checked again as the command's flags are. */
export const scenarioCli: ScenarioCli = {
  run: loadCommand,
  rerun: async (stored, { out, rerunOf }, args, registry) => {
    // The same seed: the same arrival schedules, so the two runs differ by the machine only.
    const { loadConfig } = await import('../scenarios/load/load-run.js');
    return loadAndReport(loadConfig({ ...(stored as LoadConfig), out }), { rerunOf }, registry, screenLayout(args));
  },
};

/** Runs a load config with progress lines, Ctrl-C handling and the report, recorded in the history. Shared by `load` and `rerun`. */
async function loadAndReport(config: LoadConfig, links: { readonly rerunOf?: number }, registry: EngineRegistry, layout: ScreenLayout = reportWidth(null)): Promise<number> {
  const [{ executeRecorded }, { LOAD_SCENARIO }, { renderLoadReport }, { notDrawnLines }, { loadCharts }] = await Promise.all([
    import('../runs/history/recorded-run.js'),
    import('../scenarios/load/load-scenario.js'),
    import('../scenarios/load/load-report.js'),
    import('../../reports/cell-files.js'),
    import('../scenarios/load/load-files.js'),
  ]);
  return reportRecordedCommand({
    unit: 'engine call',
    out: config.out,
    registry,
    ...(links.rerunOf !== undefined ? { rerunOf: links.rerunOf } : {}),
    execute: ({ progress, ...hooks }, record) =>
      executeRecorded(LOAD_SCENARIO, config, {
        ...hooks,
        names: 'flag',
        onStart: (r) => {
          progress.line(startLine(`inferbench: load ${r.id}: ${r.models.map((m) => m.name).join(', ')}`, r.config['enginesResolved'] as string[], '', progress.width));
        },
      }, record),
    progressLine,
    wide: layout.wide,
    render: (record: LoadRunRecord, color, entryId) => renderLoadReport(record, { color, ...layout, historyId: entryId }),
    after: (record) => (config.png ? notDrawnLines(loadCharts(record)) : []),
  });
}
