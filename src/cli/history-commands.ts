import { historyLeftOutOfPack } from '../core/offline-pack.js';
import { existsSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { DEFAULT_OUT_DIR } from '../core/output-folder.js';
import { HistoryStore } from '../runs/history/history-store.js';
import { entryEngines, type HistoryEntry } from '../runs/history/history-entry.js';
import { entryCommand, entryModelName, recordOf } from '../runs/history/entry-record.js';
import { scenarioOfConfig } from '../scenarios/scenario-registry.js';
import { headlineText, progressText } from '../runs/history/entry-summary.js';
import { removeEntry } from '../runs/history/remove-entry.js';
import { requirePositionals, resolveEntryId } from '../runs/history/entry-ref.js';
import { fitLines, type TableRow, type Style, wrap } from '../../reports/text-table.js';
import { fitNote, fittedRows } from '../../reports/fitted-table.js';
import { UNLIMITED_WIDTH } from '../../reports/report-layout.js';
import { formatTimestamp } from '../core/units.js';
import { UserError } from '../core/errors.js';
import { reportWidth } from './terminal-width.js';
import { positiveIntFlag, stringFlag, type ParsedArgs } from './args.js';
import { LIST_COMMAND, RERUN_COMMAND, RM_COMMAND, SHOW_COMMAND } from './history-specs.js';
import type { EngineRegistry } from '../core/engine-registry.js';

function storeOf(args: ParsedArgs, command: string): HistoryStore {
  const leftOut = historyLeftOutOfPack(command);
  if (leftOut) throw leftOut;
  return new HistoryStore(stringFlag(args, 'out') ?? DEFAULT_OUT_DIR);
}

/** The store of --out when one exists; looking something up must not create an empty store in a wrong folder. */
function existingStore(args: ParsedArgs, command: string): HistoryStore {
  const store = storeOf(args, command);
  if (!existsSync(store.file)) {
    throw new UserError(`no benchmark history in ${store.out}`, 'pass the --out folder your runs were written to (`inferbench run` and `inferbench serve` create it)');
  }
  return store;
}

function useColor(): boolean {
  return process.stdout.isTTY === true && !process.env['NO_COLOR'];
}

const ENTRY_STATE_STYLE: Record<HistoryEntry['state'], Style> = { queued: 'dim', running: 'cyan', completed: 'green', failed: 'red', interrupted: 'yellow' };

/** `inferbench list`: the history, newest first. */
export async function listCommand(args: ParsedArgs): Promise<number> {
  const store = storeOf(args, 'list');
  const entries = existsSync(store.file) ? await store.list() : [];
  if (args.flags['json'] === true) {
    process.stdout.write(`${JSON.stringify(entries, null, 2)}\n`);
    return 0;
  }
  if (entries.length === 0) {
    process.stdout.write(`No benchmarks in ${store.file} yet. Run \`inferbench run\` or \`inferbench serve\` to add one.\n`);
    return 0;
  }
  const layout = reportWidth(args);
  const rows: TableRow[] = entries.map((e) => ({
    cells: [
      String(e.id),
      formatTimestamp(e.createdAt),
      entryModelName(e),
      entryEngines(e).join(','),
      { text: e.state === 'running' || e.state === 'queued' ? `${e.state} ${progressText(e)}`.trim() : e.state, style: ENTRY_STATE_STYLE[e.state] },
      headlineText(e),
      e.rerunOf !== null ? `re-run of ${e.rerunOf}` : e.compareWith !== null ? `vs ${e.compareWith}` : '',
    ],
  }));
  // Fits the terminal as the run report does (fitted-table.ts): the link, then the engines and the date give way first,
  // then the widest text is cut short (…), and a line says which; --wide keeps every column whole.
  const table = fittedRows({
    title: 'BENCHMARKS',
    columns: [
      { header: 'id', align: 'right' },
      { header: 'date', align: 'left', dropOrder: 3 },
      { header: 'model', align: 'left' },
      { header: 'engines', align: 'left', dropOrder: 2 },
      { header: 'state', align: 'left' },
      { header: 'best throughput', align: 'left' },
      { header: 'link', align: 'left', dropOrder: 1 },
    ],
    rows,
    color: useColor(),
    minWidth: 0,
    maxWidth: layout.wide ? UNLIMITED_WIDTH : layout.width,
  });
  // Where the rest is, in list's words: the history has no results.csv, its --json has every field.
  const note = fitNote(table, layout.width).join(' ').replace('results.csv has every column; --wide prints them all.', '--wide or --json prints them all.');
  process.stdout.write(`${[...table.lines, ...(layout.wide || note === '' ? [] : wrap(note, layout.width))].join('\n')}\n`);
  return 0;
}

/** `inferbench show <id>`: settings, state, links, then the run's tables. */
export async function showCommand(args: ParsedArgs): Promise<number> {
  const [ref] = requirePositionals(args.positionals, 1, SHOW_COMMAND.usage);
  const store = existingStore(args, 'show');
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
    ...scenarioOfConfig(entry.config).settingLines(entry.config),
    `  started from: ${entry.source}`,
    `  created:      ${formatTimestamp(entry.createdAt)}`,
    ...(entry.finishedAt ? [`  finished:     ${formatTimestamp(entry.finishedAt)}`] : []),
    `  cells:        ${progressText(entry) || '0'}`,
    ...(entry.headline ? [`  best:         ${headlineText(entry)}`] : []),
    ...(entry.rerunOf !== null ? [`  re-run of:    ${entry.rerunOf}`] : []),
    ...(entry.compareWith !== null ? [`  compare with: ${entry.compareWith}`] : []),
    ...(entry.dir ? [`  folder:       ${entry.dir}`] : []),
  ];
  // Fitted to the width as the report below is (--wide keeps lines whole); the folder stays whole, to be copied.
  const layout = reportWidth(args);
  const fitted = layout.wide ? lines : lines.flatMap((l) => (l.startsWith('  folder:') ? [l] : fitLines([l], layout.width)));
  process.stdout.write(`${fitted.join('\n')}\n`);
  const record = recordOf(entry);
  if (record && record.cells.length > 0) {
    // Its scenario's report; `--view`, `--batch-size` and `--threads` are read only by a scenario that has such views.
    const text = scenarioOfConfig(entry.config).report(record, {
      color: useColor(),
      ...layout,
      details: args.flags['details'] === true,
      historyId: entry.id,
      text: (name) => stringFlag(args, name),
      positiveInt: (name) => positiveIntFlag(args, name),
    });
    process.stdout.write(`\n${text}\n`);
  }
  return 0;
}

/** `inferbench rerun <id>`: the same resolved config, as a new entry linked to the old one. */
export async function rerunCommand(args: ParsedArgs, registry: EngineRegistry): Promise<number> {
  const [ref] = requirePositionals(args.positionals, 1, RERUN_COMMAND.usage);
  const store = existingStore(args, 'rerun');
  const entry = await store.require(await resolveEntryId(store, ref as string, 'rerun'));
  process.stderr.write(`inferbench: re-running benchmark ${entry.id} with the same settings\n`);
  // Its scenario's CLI, found by the stored config's command; the run modules load only for a rerun: list, show and rm read the store alone.
  const { rerunStoredConfig } = await import('./scenario-commands.js');
  return rerunStoredConfig(entry.config, { out: store.out, rerunOf: entry.id }, args, registry);
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
  const store = existingStore(args, 'rm');
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
