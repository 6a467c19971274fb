import { renderTrainingReport } from '../../reports/training-report.js';
import { trainConfig } from '../runs/train-run.js';
import { existsSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { DEFAULT_OUT_DIR, resolveRunConfig } from '../runs/classify-run.js';
import { HistoryStore } from '../runs/history/history-store.js';
import { entryCommand, entryEngines, entryModelName, isGenerateConfig, isGenerationRecord, isLoadConfig, isLoadRecord, isTrainConfig, isTrainingRecord, recordOf, type HistoryEntry, type StoredConfig } from '../runs/history/history-entry.js';
import { renderServerReport } from '../../reports/server-report.js';
import { loadConfig } from '../runs/load-run.js';
import { goalText } from '../core/latency-goal.js';
import { generateConfig } from '../runs/generate-run.js';
import { renderGenerationReport } from '../../reports/generation-report.js';
import { headlineText, progressText } from '../runs/history/entry-summary.js';
import { removeEntry } from '../runs/history/remove-entry.js';
import { requirePositionals, resolveEntryId } from '../runs/history/entry-ref.js';
import { renderTable, type TableRow, type Style } from '../../reports/text-table.js';
import { formatTimestamp } from '../core/units.js';
import { renderTerminalReport } from '../../reports/terminal-report.js';
import { scalingSections, statisticsSection } from '../../reports/terminal-views.js';
import { threadSettings } from '../../reports/run-views.js';
import { batchSizes } from '../../reports/run-summary.js';
import type { RunRecord } from '../core/results.js';
import { UserError } from '../core/errors.js';
import { positiveIntFlag, stringFlag, type ParsedArgs } from './args.js';
import { LIST_COMMAND, RERUN_COMMAND, RM_COMMAND, SHOW_COMMAND } from './history-specs.js';

function storeOf(args: ParsedArgs): HistoryStore {
  return new HistoryStore(stringFlag(args, 'out') ?? DEFAULT_OUT_DIR);
}

/** The store of --out when one exists; looking something up must not create an empty store in a wrong folder. */
function existingStore(args: ParsedArgs): HistoryStore {
  const store = storeOf(args);
  if (!existsSync(store.file)) {
    throw new UserError(`no benchmark history in ${store.out}`, 'pass the --out folder your runs were written to (`inferbench run` and `inferbench serve` create it)');
  }
  return store;
}

function useColor(): boolean {
  return process.stdout.isTTY === true && !process.env['NO_COLOR'];
}

const STATE_STYLE: Record<HistoryEntry['state'], Style> = { queued: 'dim', running: 'cyan', completed: 'green', failed: 'red', interrupted: 'yellow' };

/** `inferbench list`: the history, newest first. */
export async function listCommand(args: ParsedArgs): Promise<number> {
  const store = storeOf(args);
  const entries = existsSync(store.file) ? await store.list() : [];
  if (args.flags['json'] === true) {
    process.stdout.write(`${JSON.stringify(entries, null, 2)}\n`);
    return 0;
  }
  if (entries.length === 0) {
    process.stdout.write(`No benchmarks in ${store.file} yet. Run \`inferbench run\` or \`inferbench serve\` to add one.\n`);
    return 0;
  }
  const rows: TableRow[] = entries.map((e) => ({
    cells: [
      String(e.id),
      formatTimestamp(e.createdAt),
      entryModelName(e),
      entryEngines(e).join(','),
      { text: e.state === 'running' || e.state === 'queued' ? `${e.state} ${progressText(e)}`.trim() : e.state, style: STATE_STYLE[e.state] },
      headlineText(e),
      e.rerunOf !== null ? `re-run of ${e.rerunOf}` : e.compareWith !== null ? `vs ${e.compareWith}` : '',
    ],
  }));
  const table = renderTable({
    title: 'BENCHMARKS',
    columns: [
      { header: 'id', align: 'right' },
      { header: 'date', align: 'left' },
      { header: 'model', align: 'left' },
      { header: 'engines', align: 'left' },
      { header: 'state', align: 'left' },
      { header: 'best throughput', align: 'left' },
      { header: 'link', align: 'left' },
    ],
    rows,
    color: useColor(),
  });
  process.stdout.write(`${table.lines.join('\n')}\n`);
  return 0;
}

/** `inferbench show <id>`: settings, state, links, then the run's tables. */
export async function showCommand(args: ParsedArgs): Promise<number> {
  const [ref] = requirePositionals(args.positionals, 1, SHOW_COMMAND.usage);
  const store = existingStore(args);
  const entry = await store.require(await resolveEntryId(store, ref as string, 'show'));
  if (args.flags['json'] === true) {
    process.stdout.write(`${JSON.stringify(entry, null, 2)}\n`);
    return 0;
  }
  const lines = [
    `Benchmark ${entry.id}: ${entry.state}${entry.error ? ` (${entry.error})` : ''}`,
    `  command:      ${entryCommand(entry.config)}`,
    `  model:        ${entryModelName(entry)}`,
    `  engines:      ${entryEngines(entry).join(', ')}`,
    ...settingLines(entry.config),
    `  started from: ${entry.source}`,
    `  created:      ${formatTimestamp(entry.createdAt)}`,
    ...(entry.finishedAt ? [`  finished:     ${formatTimestamp(entry.finishedAt)}`] : []),
    `  cells:        ${progressText(entry) || '0'}`,
    ...(entry.headline ? [`  best:         ${headlineText(entry)}`] : []),
    ...(entry.rerunOf !== null ? [`  re-run of:    ${entry.rerunOf}`] : []),
    ...(entry.compareWith !== null ? [`  compare with: ${entry.compareWith}`] : []),
    ...(entry.dir ? [`  folder:       ${entry.dir}`] : []),
  ];
  process.stdout.write(`${lines.join('\n')}\n`);
  const record = recordOf(entry);
  if (record && record.cells.length > 0) {
    const text = isGenerationRecord(record)
      ? renderGenerationReport(record, { color: useColor() })
      : isTrainingRecord(record) ? renderTrainingReport(record, { color: useColor() })
      : isLoadRecord(record) ? renderServerReport(record, { color: useColor() }) : renderView(record, args);
    process.stdout.write(`\n${text}\n`);
  }
  return 0;
}

/** The settings lines of `show`, per kind of run. */
function settingLines(c: StoredConfig): string[] {
  if (isGenerateConfig(c)) {
    return [
      `  batch sizes:  ${(c.batchSizes ?? []).join(', ')}`,
      `  prompts:      ${(c.promptLengths ?? []).join(', ')} tokens, ${(c.newTokens ?? []).join(', ')} new tokens`,
      `  threads:      ${c.threads === null ? 'engine default' : String(c.threads)}`,
      `  dataset:      ${c.dataset ?? 'embedded default'}`,
    ];
  }
  if (isTrainConfig(c)) {
    return [
      `  batch sizes:  ${c.batchSizes.join(', ')}`,
      `  steps:        ${c.rounds} rounds × (${c.warmSteps} warm + ${c.steps}), ${c.optimizer} lr ${c.learningRate}`,
      `  threads:      ${c.threads === null ? 'engine default' : String(c.threads)}`,
      `  dataset:      ${c.dataset ?? 'embedded default'}`,
    ];
  }
  if (isLoadConfig(c)) {
    return [
      `  rates:        ${c.rates.length > 0 ? `${c.rates.join(', ')} req/s` : 'none given'}${c.findPeak ? ', peak search' : ''}${c.slo ? `, goal ${goalText(c.slo)}` : ''}`,
      `  arrivals:     ${c.arrival}${c.arrival === 'gamma' ? ` (burstiness ${c.burstiness})` : ''}, seed ${c.seed}, ${c.warmupMs / 1000} s warm-up + ≥ ${c.durationMs / 1000} s and ${c.minQueries} requests per rate, ${c.rounds} round${c.rounds === 1 ? '' : 's'}`,
      `  batcher:      max batch ${c.maxBatch ?? 1}, max wait ${c.maxWaitMs ?? 0} ms`,
      `  threads:      ${c.threads === null ? 'engine default' : String(c.threads)}`,
      `  dataset:      ${c.dataset ?? 'embedded default'} (${c.limit} rows)`,
    ];
  }
  return [
    `  batch sizes:  ${c.batchSizes.join(', ')}`,
    `  threads:      ${c.threads.map((t) => (t === null ? 'engine default' : String(t))).join(', ')}`,
    `  dataset:      ${c.dataset ?? 'embedded default'}${c.limit !== null ? ` (${c.limit} rows per cell)` : ''}`,
  ];
}

const VIEWS = ['all', 'baseline', 'core', 'batch'] as const;

/**
 * The run's tables as `show` prints them: the whole report, or one of the
 * dashboard's three views with its fixed value (the drop-downs there).
 */
function renderView(record: RunRecord, args: ParsedArgs): string {
  const batchSize = positiveIntFlag(args, 'batch-size');
  const threadsText = stringFlag(args, 'threads');
  const threads = threadsText === undefined ? undefined : threadsText === 'default' ? null : positiveIntFlag(args, 'threads');
  const asked = stringFlag(args, 'view');
  if (asked !== undefined && !(VIEWS as readonly string[]).includes(asked)) throw new UserError(`--view must be one of ${VIEWS.join(', ')}, got "${asked}"`, 'e.g. --view core --batch-size 8');
  const view = asked ?? (batchSize !== undefined && threads === undefined ? 'core' : threads !== undefined && batchSize === undefined ? 'batch' : batchSize !== undefined ? 'scaling' : 'all');
  const sizes = batchSizes(record);
  if (batchSize !== undefined && !sizes.includes(batchSize)) throw new UserError(`--batch-size ${batchSize} was not measured in this run`, `use one of ${sizes.join(', ')}`);
  const settings = threadSettings(record);
  if (threads !== undefined && !settings.includes(threads)) {
    throw new UserError(`--threads ${threadsText} was not measured in this run`, `use one of ${settings.map((t) => (t === null ? 'default' : String(t))).join(', ')}`);
  }
  const color = useColor();
  const width = Math.max(40, process.stdout.columns ?? 150);
  if (view === 'all') return renderTerminalReport(record, { color, width });
  if (view === 'baseline') return statisticsSection(record, width, 0, color).join('\n');
  const fixed = { ...(batchSize !== undefined ? { batchSize } : {}), ...(threads !== undefined ? { threads } : {}) };
  return scalingSections(record, width, 0, color, { ...fixed, ...(view === 'core' || view === 'batch' ? { only: view } : {}) }).join('\n');
}

/** `inferbench rerun <id>`: the same resolved config, as a new entry linked to the old one. */
export async function rerunCommand(args: ParsedArgs): Promise<number> {
  const [ref] = requirePositionals(args.positionals, 1, RERUN_COMMAND.usage);
  const store = existingStore(args);
  const entry = await store.require(await resolveEntryId(store, ref as string, 'rerun'));
  process.stderr.write(`inferbench: re-running benchmark ${entry.id} with the same settings\n`);
  if (isGenerateConfig(entry.config)) {
    const { command: _command, ...stored } = entry.config;
    const { generateAndReport } = await import('./generate-command.js');
    return generateAndReport(generateConfig({ ...stored, out: store.out }), { rerunOf: entry.id });
  }
  if (isTrainConfig(entry.config)) {
    const { trainAndReport } = await import('./train-command.js');
    return trainAndReport(trainConfig({ ...entry.config, out: store.out }), { rerunOf: entry.id });
  }
  if (isLoadConfig(entry.config)) {
    // The same seed: the same arrival schedules, so the two runs differ by the machine only.
    const { loadAndReport } = await import('./load-command.js');
    return loadAndReport(loadConfig({ ...entry.config, out: store.out }), { rerunOf: entry.id });
  }
  // Validated again: an engine or option accepted then may not exist in this version.
  const config = resolveRunConfig({ ...entry.config, out: store.out });
  const { runAndReport } = await import('./run-command.js');
  return runAndReport(config, { rerunOf: entry.id });
}

/** Reads one line from stdin; EOF counts as no. */
function ask(question: string): Promise<string> {
  return new Promise((resolve) => {
    const rl = createInterface({ input: process.stdin, output: process.stderr, terminal: false });
    let answered = false;
    rl.on('line', (line) => {
      answered = true;
      rl.close();
      resolve(line);
    });
    rl.on('close', () => {
      if (!answered) resolve('');
    });
    process.stderr.write(question);
  });
}

/** `inferbench rm <id>`: removes the entry and its run folder, after confirmation unless --yes. */
export async function rmCommand(args: ParsedArgs): Promise<number> {
  const [ref] = requirePositionals(args.positionals, 1, RM_COMMAND.usage);
  const store = existingStore(args);
  const entry = await store.require(await resolveEntryId(store, ref as string, 'rm'));
  if (args.flags['yes'] !== true) {
    const what = entry.dir ? ` and delete ${entry.dir}` : '';
    const answer = await ask(`Remove benchmark ${entry.id} (${entryModelName(entry)}, ${entry.state})${what}? [y/N] `);
    if (!/^y(es)?$/i.test(answer.trim())) {
      process.stderr.write('inferbench: nothing removed\n');
      return 1;
    }
  }
  const removed = await removeEntry(store, entry.id);
  process.stdout.write(`Removed benchmark ${removed.entry.id}${removed.deletedDir ? ` and ${removed.deletedDir}` : ''}\n`);
  for (const w of removed.warnings) process.stderr.write(`inferbench: warning: ${w}\n`);
  return 0;
}
