import { Benchmark } from '../benchmark.js';
import { resolveBenchmarkOptions, type ProgressEvent } from '../benchmark-options.js';
import { defaultRegistry, unavailableText } from '../engine-registry.js';
import { collectEnvironment } from '../environment.js';
import { createRunDir, newRunId, RunSession } from '../run-session.js';
import { TextClassification } from '../text-classification.js';
import { defaultClassifier } from '../default-classifier.js';
import { describeError } from '../errors.js';
import { openDataset, EMBEDDED_DATASET_NAME } from '../../datasets/open-dataset.js';
import { resolveColumns } from '../../datasets/columns.js';
import { formatDuration } from '../../reports/units.js';
import { renderTerminalReport } from '../../reports/terminal-report.js';
import { writeRunFiles } from '../../reports/write-run.js';
import { listFlag, positiveIntFlag, positiveIntListFlag, stringFlag, type ParsedArgs } from './args.js';

const EXIT_INTERRUPTED = 130;

function progressLine(event: ProgressEvent): string | null {
  if (event.kind === 'cell-start') return `[${event.index + 1}/${event.total}] ${event.engine} batch ${event.batchSize} …`;
  const c = event.cell;
  const tail = c.state === 'completed' ? `${formatDuration(c.totalMs)} engine time, ${c.samples.runMs.length} batches` : `${c.state}: ${c.reason}`;
  return `[${event.index + 1}/${event.total}] ${c.engine} batch ${c.batchSize}: ${tail}`;
}

/**
 * `inferbench run`: validate every flag before loading anything, sweep, save
 * after each cell, print the tables and the paths written. Ctrl-C stops
 * after the current batch; a second Ctrl-C exits at once (files written
 * after the last finished cell stay intact).
 */
export async function runCommand(args: ParsedArgs): Promise<number> {
  const engineNames = listFlag(args, 'engines');
  const requested = engineNames ? defaultRegistry.parseNames(engineNames) : undefined;
  const warmup = stringFlag(args, 'warmup');
  const options = resolveBenchmarkOptions(
    {
      dataset: stringFlag(args, 'dataset'),
      batchSizes: positiveIntListFlag(args, 'batch-sizes'),
      limit: positiveIntFlag(args, 'limit'),
      threads: positiveIntFlag(args, 'threads'),
      warmupBatches: warmup === undefined ? undefined : Number(warmup),
      textColumn: stringFlag(args, 'text-column'),
      labelColumn: stringFlag(args, 'label-column'),
    },
    { batchSizes: '--batch-sizes', limit: '--limit', threads: '--threads' },
  );
  // Open the dataset and check its columns before the (slower) model load, so input mistakes fail fast.
  const datasetPath = stringFlag(args, 'dataset');
  const dataset = await openDataset(datasetPath);
  resolveColumns(await dataset.columns(), { text: options.textColumn, label: options.labelColumn });
  const modelDir = stringFlag(args, 'model');
  const model = modelDir ? await new TextClassification(modelDir).init() : await defaultClassifier();

  const candidates = requested ?? defaultRegistry.ids();
  const { runnable, unavailable } = await defaultRegistry.selectRunnable(candidates);
  // Explicitly requested but unavailable engines stay in the sweep and show as skipped cells.
  const engines = requested ?? runnable;

  const controller = new AbortController();
  let interrupts = 0;
  const onSigint = () => {
    interrupts++;
    if (interrupts === 1) {
      process.stderr.write('\ninferbench: stopping after the current batch (Ctrl-C again to quit now)…\n');
      controller.abort();
    } else {
      process.exit(EXIT_INTERRUPTED);
    }
  };
  process.on('SIGINT', onSigint);

  const id = newRunId();
  const png = args.flags['no-png'] !== true;
  const dir = await createRunDir(stringFlag(args, 'out') ?? 'inferbench-out', id);
  const config = {
    command: 'run',
    model: model.dir,
    engines,
    unavailableEngines: unavailable.map((s) => ({ id: s.id, reason: unavailableText(s) })),
    batchSizes: options.batchSizes,
    dataset: datasetPath ?? `embedded default (${EMBEDDED_DATASET_NAME})`,
    limit: options.limit,
    warmupBatches: options.warmupBatches,
    threads: options.threads,
    textColumn: options.textColumn ?? null,
    labelColumn: options.labelColumn ?? null,
  };
  const session = new RunSession(id, dir, config, collectEnvironment(), [await model.info()]);
  process.stderr.write(`inferbench: run ${id}: ${model.name} on ${engines.join(', ')} at batch ${options.batchSizes.join(', ')}\n`);

  const benchmark = new Benchmark({
    ...options,
    dataset,
    signal: controller.signal,
    onProgress: (e) => {
      const line = progressLine(e);
      if (line && e.kind === 'cell-done') process.stderr.write(`${line}\n`);
    },
    onCell: async (cell) => {
      session.cells.push(cell);
      await writeRunFiles(session.snapshot(), dir, { png: false });
    },
  });
  try {
    await benchmark.run(model, engines);
  } catch (err) {
    // Keep what was measured, then report the error as usual.
    session.finish('interrupted');
    await writeRunFiles(session.snapshot(), dir, { png: false }).catch(() => {});
    throw err;
  } finally {
    process.off('SIGINT', onSigint);
  }
  session.finish(controller.signal.aborted ? 'interrupted' : 'completed');
  const run = session.snapshot();
  process.stdout.write(`${renderTerminalReport(run, { color: process.stdout.isTTY === true && !process.env['NO_COLOR'], ...(process.stdout.columns ? { width: process.stdout.columns } : {}) })}\n`);
  let paths: string[];
  try {
    paths = await writeRunFiles(run, dir, { png });
  } catch (err) {
    if (!png) throw err;
    process.stderr.write(`inferbench: warning: comparison.png not written: ${describeError(err)}\n`);
    paths = await writeRunFiles(run, dir, { png: false });
  }
  process.stdout.write(`\nWrote:\n${paths.map((p) => `  ${p}`).join('\n')}\n`);
  if (controller.signal.aborted) {
    process.stderr.write('inferbench: interrupted; the files above hold every cell measured before Ctrl-C\n');
    return EXIT_INTERRUPTED;
  }
  return 0;
}
