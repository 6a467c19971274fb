/**
 * `inferbench load` on the command line (the load scenario's `cli`, see
 * ../scenario-registry.ts): its config from the flags, every flag checked
 * before the run's modules load, and what the command prints of a run: the
 * start line, a line per round, per probe and per cell, the tables and the
 * charts not drawn. The CLI (src/cli/scenario-cli.ts) runs it as it runs
 * every scenario.
 */
import { UserError } from '../../core/errors.js';
import { interruptedBy, stopCause } from '../../core/stop-cause.js';
import { checkRange } from '../../core/option-ranges.js';
import { formatDuration, formatRate } from '../../core/units.js';
import type { ScenarioCommandLine, ScenarioFlags } from '../scenario-registry.js';
import { parseLatencyGoal } from './latency-goal.js';
import { ARRIVAL_PROCESSES, type ArrivalProcess, type LoadRunRecord, type PeakRound } from './load-results.js';
import type { LoadConfig } from './load-run.js';
import type { LoadProgress } from './load-sweep.js';

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
function ratesFlag(flags: ScenarioFlags): number[] | undefined {
  const raw = flags.text('rates');
  if (raw === undefined) return undefined;
  return raw.split(',').map((item) => {
    const text = item.trim();
    const value = Number(text);
    if (text === '' || !Number.isFinite(value)) throw new UserError(`--rates must be numbers of requests per second, got "${text}"`, 'e.g. --rates 50,100,200');
    return checkRange('rates', value, 'flag', { raw: text, name: '--rates' });
  });
}

/** `--arrival`, with `--burstiness` alone meaning gamma (vLLM's burstiness shapes gamma gaps). */
function arrivalFlag(flags: ScenarioFlags, burstiness: number | undefined): ArrivalProcess | undefined {
  const raw = flags.text('arrival');
  if (raw === undefined) return burstiness === undefined ? undefined : 'gamma';
  const value = raw.trim().toLowerCase() as ArrivalProcess;
  if (!ARRIVAL_PROCESSES.includes(value)) throw new UserError(`--arrival must be one of ${ARRIVAL_PROCESSES.join(', ')}, got "${raw}"`, 'e.g. --arrival poisson, or --arrival gamma --burstiness 0.5');
  if (burstiness !== undefined && value !== 'gamma') throw new UserError(`--burstiness shapes gamma arrivals, but --arrival is ${value}`, 'pass --arrival gamma with --burstiness, or leave --burstiness out');
  return value;
}

const seconds = (s: number | undefined): number | undefined => (s === undefined ? undefined : s * 1000);

/**
 * Every flag of `inferbench load`, checked before anything loads, then the
 * config: serve each engine the same arrival schedules.
 */
async function fromFlags(flags: ScenarioFlags): Promise<LoadConfig> {
  const burstiness = flags.number('burstiness');
  const slo = flags.text('slo');
  const partial: Partial<LoadConfig> = {
    models: flags.repeated('model') ?? [],
    engines: flags.engines(),
    threads: flags.positiveInt('threads') ?? null,
    dataset: flags.text('dataset') ?? null,
    textColumn: flags.text('text-column') ?? null,
    limit: flags.positiveInt('limit'),
    rates: ratesFlag(flags),
    findPeak: flags.given('find-peak'),
    arrival: arrivalFlag(flags, burstiness),
    burstiness,
    seed: flags.count('seed'),
    durationMs: seconds(flags.number('duration')),
    minQueries: flags.positiveInt('min-queries'),
    warmupMs: seconds(flags.number('warmup')),
    maxBatch: flags.positiveInt('max-batch') ?? null,
    maxWaitMs: flags.number('max-wait') ?? null,
    slo: slo === undefined ? null : parseLatencyGoal(slo, '--slo'),
    rounds: flags.positiveInt('rounds'),
    out: flags.text('out'),
    png: !flags.given('no-png'),
    isolate: !flags.given('no-isolate'),
  };
  const defined = Object.fromEntries(Object.entries(partial).filter(([, v]) => v !== undefined)) as Partial<LoadConfig>;
  // The run stack loads only now, every flag checked: a refused command costs what `--help` costs.
  const { loadConfig } = await import('./load-run.js');
  return loadConfig(defined);
}

/** `load`'s command line, and a rerun of a stored config, checked again as the command's flags are. */
export const commandLine: ScenarioCommandLine<LoadRunRecord, LoadConfig, LoadProgress> = {
  unit: 'engine call',
  fromFlags,
  // The same seed: the same arrival schedules, so the two runs differ by the machine only.
  fromStored: async (stored, out) => (await import('./load-run.js')).loadConfig({ ...stored, out }),
  printer: async (config) => {
    const [{ renderLoadReport }, { notDrawnLines }, { loadCharts }] = await Promise.all([
      import('./load-report.js'),
      import('../../../reports/cell-files.js'),
      import('./load-files.js'),
    ]);
    return {
      start: (r) => ({ head: `inferbench: load ${r.id}: ${r.models.map((m) => m.name).join(', ')}` }),
      progress: progressLine,
      report: (record, options) => renderLoadReport(record, options),
      after: (record) => (config.png ? notDrawnLines(loadCharts(record)) : []),
    };
  },
};
