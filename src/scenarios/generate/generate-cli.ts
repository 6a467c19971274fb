/**
 * `inferbench generate` on the command line (the generate scenario's
 * `cli`, see ../scenario-registry.ts): its config from the flags, every
 * flag checked before the run's modules load, and what the command prints
 * of a run: the start line, a line per round and per cell, the TTFT / TPOT
 * / throughput tables and the charts not drawn. The CLI
 * (src/cli/scenario-cli.ts) runs it as it runs every scenario.
 */
import { formatDuration } from '../../core/units.js';
import type { ScenarioCommandLine, ScenarioFlags } from '../scenario-registry.js';
import type { GenerateConfig, StoredGenerateConfig } from './generate-run.js';
import type { GenerationCellKey, GenerationRunRecord } from './generation-results.js';
import type { GenerationProgress } from './generation-sweep.js';

const whereOf = (c: GenerationCellKey): string => `${c.engine} batch ${c.batchSize} prompt ${c.promptLength} new ${c.newTokens}`;

/** A line as each round of a cell starts (cells are recorded only after their last round), then one per recorded cell. */
function progressLine(event: GenerationProgress): string | null {
  if (event.kind === 'cell-start') return `  round ${event.round + 1}/${event.rounds} ${whereOf(event.key)}…`;
  const c = event.cell;
  const where = whereOf(c);
  const tail =
    c.state === 'completed'
      ? `TTFT ${formatDuration(c.ttft.mean)}, TPOT ${c.tpot ? formatDuration(c.tpot.mean) : 'n/a'}${c.verdict ? `, ${c.verdict.status}` : ''}`
      : `${c.state}: ${c.reason}`;
  return `[${event.index + 1}/${event.total}] ${where}: ${tail}`;
}

/**
 * Every flag of `inferbench generate`, read before anything loads, then the
 * config: sweep engines × batch sizes × prompt lengths × new tokens.
 */
async function fromFlags(flags: ScenarioFlags): Promise<GenerateConfig> {
  const threads = flags.positiveInt('threads');
  const input: Partial<GenerateConfig> = {
    model: flags.text('model') ?? null,
    engines: flags.engines(),
    batchSizes: flags.positiveIntList('batch-sizes'),
    promptLengths: flags.positiveIntList('prompt-lengths'),
    newTokens: flags.positiveIntList('new-tokens'),
    runs: flags.positiveInt('runs'),
    rounds: flags.positiveInt('rounds'),
    warmupRuns: flags.count('warmup'),
    threads: threads ?? null,
    dataset: flags.text('dataset') ?? null,
    textColumn: flags.text('text-column') ?? null,
    promptLimit: flags.positiveInt('limit'),
    fixedLength: !flags.given('allow-early-stop'),
    out: flags.text('out'),
    png: !flags.given('no-png'),
    isolate: !flags.given('no-isolate'),
  };
  // The run stack loads only now, every flag read: a refused command costs what `--help` costs.
  const { generateConfig } = await import('./generate-run.js');
  return generateConfig(input);
}

/** `generate`'s command line, and a rerun of a stored config, checked again as the command's flags are. */
export const commandLine: ScenarioCommandLine<GenerationRunRecord, GenerateConfig, GenerationProgress> = {
  unit: 'generate() call',
  fromFlags,
  fromStored: async (stored, out) => {
    const { command: _command, ...config } = stored as StoredGenerateConfig;
    return (await import('./generate-run.js')).generateConfig({ ...config, out });
  },
  printer: async (config) => {
    const [{ renderGenerationReport }, { generationCharts }, { notDrawnLines }] = await Promise.all([
      import('./generation-report.js'),
      import('./generation-files.js'),
      import('../../../reports/cell-files.js'),
    ]);
    return {
      start: (r) => ({ head: `inferbench: generate ${r.id}: ${r.models[0]?.name}` }),
      progress: progressLine,
      report: (record, options) => renderGenerationReport(record, options),
      after: (record) => (config.png ? notDrawnLines(generationCharts(record)) : []),
    };
  },
};
