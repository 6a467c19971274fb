import type { GenerateConfig, StoredGenerateConfig } from '../scenarios/generate/generate-run.js';
import { enginesWithOptions } from './engine-options-flag.js';
import type { ScenarioCli } from './scenario-cli.js';
import { DEFAULT_OUT_DIR } from '../core/output-folder.js';
import type { GenerationProgress } from '../scenarios/generate/generation-sweep.js';
import type { GenerationCellKey } from '../scenarios/generate/generation-results.js';
import { reportRecordedCommand, startLine } from './run-exit.js';
import { reportWidth, screenLayout, type ScreenLayout } from './terminal-width.js';
import { prepareOutputFolder } from '../core/output-folder.js';
import { formatDuration } from '../core/units.js';
import { countFlag, listFlag, positiveIntFlag, positiveIntListFlag, stringFlag, type ParsedArgs } from './args.js';
import type { EngineRegistry } from '../core/engine-registry.js';


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
 * `inferbench generate`: validate every flag before loading anything, sweep
 * engines × batch sizes × prompt lengths × new tokens, save after each cell,
 * print the TTFT / TPOT / throughput tables and the paths written.
 */
export async function generateCommand(args: ParsedArgs, registry: EngineRegistry): Promise<number> {
  // Before anything else: an output folder that cannot be written (or hangs mkdir) is the first thing to report.
  await prepareOutputFolder(stringFlag(args, 'out') ?? DEFAULT_OUT_DIR);
  const threads = positiveIntFlag(args, 'threads', 'threads');
  const input: Partial<GenerateConfig> = {
    model: stringFlag(args, 'model') ?? null,
    engines: enginesWithOptions(args, registry),
    batchSizes: positiveIntListFlag(args, 'batch-sizes', 'batchSizes'),
    promptLengths: positiveIntListFlag(args, 'prompt-lengths', 'promptLengths'),
    newTokens: positiveIntListFlag(args, 'new-tokens', 'newTokens'),
    runs: positiveIntFlag(args, 'runs', 'runs'),
    rounds: positiveIntFlag(args, 'rounds', 'rounds'),
    warmupRuns: countFlag(args, 'warmup', 'warmupRuns'),
    threads: threads ?? null,
    dataset: stringFlag(args, 'dataset') ?? null,
    textColumn: stringFlag(args, 'text-column') ?? null,
    promptLimit: positiveIntFlag(args, 'limit', 'promptLimit'),
    fixedLength: args.flags['allow-early-stop'] !== true,
    out: stringFlag(args, 'out'),
    png: args.flags['no-png'] !== true,
    isolate: args.flags['no-isolate'] !== true,
  };
  // The run stack loads only now, every flag read: a refused command costs what `--help` costs.
  const { generateConfig } = await import('../scenarios/generate/generate-run.js');
  const config = generateConfig(input);

  return generateAndReport(config, {}, registry, screenLayout(args));
}

/** `generate`'s CLI (scenario-commands.ts): the command, and a rerun of a stored config, checked again as the command's flags are. */
export const scenarioCli: ScenarioCli = {
  run: generateCommand,
  rerun: async (stored, { out, rerunOf }, args, registry) => {
    const { command: _command, ...config } = stored as StoredGenerateConfig;
    const { generateConfig } = await import('../scenarios/generate/generate-run.js');
    return generateAndReport(generateConfig({ ...config, out }), { rerunOf }, registry, screenLayout(args));
  },
};

/**
 * Runs a generate config with the CLI's progress lines, Ctrl-C handling and
 * report, recorded in the history like `run`. Shared by `generate` and `rerun`.
 */
async function generateAndReport(config: GenerateConfig, links: { readonly rerunOf?: number }, registry: EngineRegistry, layout: ScreenLayout = reportWidth(null)): Promise<number> {
  const [{ executeRecorded }, { GENERATE_SCENARIO }, { renderGenerationReport }, { generationCharts }, { notDrawnLines }] = await Promise.all([
    import('../runs/history/recorded-run.js'),
    import('../scenarios/generate/generate-scenario.js'),
    import('../scenarios/generate/generation-report.js'),
    import('../scenarios/generate/generation-files.js'),
    import('../../reports/cell-files.js'),
  ]);
  return reportRecordedCommand({
    unit: 'generate() call',
    out: config.out,
    registry,
    ...(links.rerunOf !== undefined ? { rerunOf: links.rerunOf } : {}),
    execute: ({ progress, ...hooks }, record) =>
      executeRecorded(GENERATE_SCENARIO, config, {
        ...hooks,
        onStart: (r) => {
          progress.line(startLine(`inferbench: generate ${r.id}: ${r.models[0]?.name}`, r.config['enginesResolved'] as string[], '', progress.width));
        },
      }, record),
    progressLine,
    wide: layout.wide,
    render: (record, color, entryId) => renderGenerationReport(record, { color, ...layout, historyId: entryId }),
    after: (record) => (config.png ? notDrawnLines(generationCharts(record)) : []),
  });
}
