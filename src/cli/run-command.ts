import type { ProgressEvent } from '../benchmark-options.js';
import { resolveRunConfig, DEFAULT_OUT_DIR, type RunConfig } from '../run-job.js';
import { executeRecordedRun } from '../history/recorded-run.js';
import { formatDuration } from '../../reports/units.js';
import { renderTerminalReport } from '../../reports/terminal-report.js';
import { runCharts } from '../../reports/write-run.js';
import { DEFAULT_STOP_RULE } from '../stop-rule.js';
import { DEFAULT_PARITY_TOLERANCE } from '../parity.js';
import { listFlag, numberFlag, positiveIntFlag, positiveIntListFlag, stringFlag, type ParsedArgs } from './args.js';

const EXIT_INTERRUPTED = 130;

/** ` --out DIR` when the run used another output folder than the default, so the hint can be pasted. */
function historyOutFlag(out: string): string {
  return out === DEFAULT_OUT_DIR ? '' : ` --out ${JSON.stringify(out)}`;
}

function progressLine(event: ProgressEvent): string | null {
  if (event.kind === 'cell-start') return null;
  const c = event.cell;
  const threads = c.requestedThreads === null ? '' : ` threads ${c.requestedThreads}`;
  const tail = c.state === 'completed' ? `${formatDuration(c.totalMs)} engine time, ${c.samples.runMs.length} batches` : `${c.state}: ${c.reason}`;
  return `[${event.index + 1}/${event.total}] ${c.engine}${threads} batch ${c.batchSize}: ${tail}`;
}

/**
 * `inferbench run`: validate every flag before loading anything, sweep, save
 * after each cell, print the tables and the paths written. Ctrl-C stops
 * after the current batch; a second Ctrl-C exits at once (files written
 * after the last finished cell stay intact).
 */
export async function runCommand(args: ParsedArgs): Promise<number> {
  const warmup = stringFlag(args, 'warmup');
  const config = resolveRunConfig(
    {
      model: stringFlag(args, 'model'),
      engines: listFlag(args, 'engines'),
      dataset: stringFlag(args, 'dataset'),
      datasetConfig: stringFlag(args, 'dataset-config'),
      split: stringFlag(args, 'split'),
      batchSizes: positiveIntListFlag(args, 'batch-sizes'),
      limit: positiveIntFlag(args, 'limit'),
      threads: positiveIntListFlag(args, 'threads'),
      warmupBatches: warmup === undefined ? undefined : Number(warmup),
      textColumn: stringFlag(args, 'text-column'),
      labelColumn: stringFlag(args, 'label-column'),
      out: stringFlag(args, 'out'),
      png: args.flags['no-png'] !== true,
      stop: {
        minTimeMs: (numberFlag(args, 'min-time') ?? DEFAULT_STOP_RULE.minTimeMs / 1000) * 1000,
        minBatches: positiveIntFlag(args, 'min-batches') ?? DEFAULT_STOP_RULE.minBatches,
        maxTimeMs: (numberFlag(args, 'max-time') ?? DEFAULT_STOP_RULE.maxTimeMs / 1000) * 1000,
      },
      ...(numberFlag(args, 'max-cv') !== undefined ? { maxCv: numberFlag(args, 'max-cv') } : {}),
      parity: {
        reference: stringFlag(args, 'reference') === 'none' ? null : (stringFlag(args, 'reference') ?? 'onnx-cpu'),
        tolerance: numberFlag(args, 'tolerance') ?? DEFAULT_PARITY_TOLERANCE,
      },
      isolate: args.flags['no-isolate'] !== true,
    },
    { batchSizes: '--batch-sizes', limit: '--limit', threads: '--threads', engines: '--engines', reference: '--reference' },
  );
  return runAndReport(config, {});
}

/**
 * Runs a resolved config with the CLI's progress lines, Ctrl-C handling and
 * report, and records it in the history (`rerunOf` links a re-run to the
 * entry it repeats). Shared by `run` and `rerun`.
 */
export async function runAndReport(config: RunConfig, links: { readonly rerunOf?: number }): Promise<number> {
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
  let outcome;
  let entryId: number | null = null;
  try {
    ({ outcome, entryId } = await executeRecordedRun(config, {
      signal: controller.signal,
      onStart: (record) => {
        const engines = (record.config['enginesResolved'] as string[]).join(', ');
        process.stderr.write(`inferbench: run ${record.id}: ${record.models[0]?.name} on ${engines} at batch ${config.batchSizes.join(', ')}\n`);
      },
      onProgress: (e) => {
        const line = progressLine(e);
        if (line) process.stderr.write(`${line}\n`);
      },
    }, { source: 'cli', rerunOf: links.rerunOf ?? null, onWarning: (m) => process.stderr.write(`inferbench: warning: ${m}\n`) }));
  } finally {
    process.off('SIGINT', onSigint);
  }
  const color = process.stdout.isTTY === true && !process.env['NO_COLOR'];
  process.stdout.write(`${renderTerminalReport(outcome.record, { color, ...(process.stdout.columns ? { width: process.stdout.columns } : {}) })}\n`);
  for (const w of outcome.warnings) process.stderr.write(`inferbench: warning: ${w}\n`);
  process.stdout.write(`\nWrote:\n${outcome.paths.map((p) => `  ${p}`).join('\n')}\n`);
  if (entryId !== null) process.stdout.write(`History: benchmark ${entryId} (inferbench show ${entryId}${historyOutFlag(config.out)})\n`);
  if (config.png) {
    for (const chart of runCharts(outcome.record)) if ('skipped' in chart) process.stdout.write(`Not drawn: ${chart.file}: ${chart.skipped}\n`);
  }
  if (outcome.record.state === 'interrupted') {
    process.stderr.write('inferbench: interrupted; the files above hold every cell measured before Ctrl-C\n');
    return EXIT_INTERRUPTED;
  }
  return 0;
}
