/**
 * Two tables of the run report, each a view of its own (report-views.ts):
 * peak RSS of the timed loop pivoted to engine × batch size, and the size
 * of each model on disk with its notes.
 */
import type { RunRecord } from '../../core/results.js';
import { engineLabeller, batchSizes, orderedCells, sequenceOf } from '../../../reports/run-summary.js';
import { hasSequenceLengths, hasVariants, parityText, sizeText, sizeVsFp32 } from '../../../reports/variant-summary.js';
import { type Column, renderTable, type TableCell, type TableRow, visibleLength, wrap } from '../../../reports/text-table.js';
import { dropToFit, fitNote, STATE_STYLE } from '../../../reports/fitted-table.js';
import { formatBytes } from '../../core/units.js';
import { baselineRows, threadsUsed } from '../../../reports/run-views.js';

/** Peak RSS of the timed loop pivoted to engine × batch size, so growth with batch size reads along a row; each row says whose process it is. */
export function memoryTable(run: RunRecord, minWidth: number, maxWidth: number, color: boolean): string[] {
  const label = engineLabeller(run);
  const batches = batchSizes(run);
  const rows: TableRow[] = [];
  const seen = new Set<string>();
  const withSeq = hasSequenceLengths(run);
  const processOf = new Map(baselineRows(run).map((r, i) => [orderedCells(run)[i], r.memoryProcess]));
  const withProcess = [...processOf.values()].some((p) => p !== null && p !== undefined);
  for (const cell of orderedCells(run)) {
    const key = `${cell.model}\u0000${label(cell)}\u0000${sequenceOf(cell)}`;
    if (seen.has(key)) continue;
    seen.add(key);
    const same = run.cells.filter((c) => c.model === cell.model && label(c) === label(cell) && sequenceOf(c) === sequenceOf(cell));
    const values = batches.map((b): TableCell => {
      const found = same.find((c) => c.batchSize === b);
      if (found === undefined) return '';
      if (found.state === 'completed') return formatBytes(found.memory?.peakRssBytes ?? found.peakRssBytes);
      return { text: found.state, style: STATE_STYLE[found.state] };
    });
    const processes = [...new Set(same.map((c) => processOf.get(c) ?? null).filter((p) => p !== null))];
    const threads = [...new Set(same.filter((c) => c.state !== 'skipped').map((c) => threadsUsed(c) ?? 'default'))].join(' / ') || '–';
    const seq: TableCell[] = withSeq ? [String(sequenceOf(cell) ?? 'text')] : [];
    const proc: TableCell[] = withProcess ? [processes.length > 0 ? { text: processes.join(' / '), style: processes.includes('browser renderer') ? 'yellow' : 'dim' } : '?'] : [];
    rows.push({ cells: [cell.model, { text: label(cell), style: 'cyan' }, threads, ...seq, ...proc, ...values] });
  }
  const columns: Column[] = [
    { header: 'model', align: 'left' },
    { header: 'engine', align: 'left' },
    { header: 'threads', align: 'right' },
    ...(withSeq ? [{ header: 'seq', align: 'right' } satisfies Column] : []),
    ...(withProcess ? [{ header: 'process', align: 'left' } satisfies Column] : []),
    ...batches.map((b): Column => ({ header: `batch ${b}`, align: 'right' })),
  ];
  const table = renderTable({ title: 'INFERENCE – MEMORY (peak RSS of the timed loop)', columns, rows, color, minWidth, maxWidth });
  const foreign = run.cells.some((c) => c.state === 'completed' && c.memory?.process !== undefined);
  return [
    ...table.lines,
    ...fitNote({ dropped: [], abbreviated: table.abbreviated }, maxWidth),
    ...wrap('Peak resident set size during the timed loop of each cell, of the process the engine ran in' +
      (foreign ? ' (this Node process, or for a browser row its Chromium renderer: not comparable with whole Node processes)' : '') +
      (withProcess ? '; process: isolated (a fresh child per open), in-process (the measuring process, beside other engines) or browser renderer' : '') +
      '. Later batch sizes of an open run after earlier ones in the same process' +
      (run.cells.some((c) => c.state === 'completed' && c.memory?.ranBefore !== undefined) ? ' (the growth table below says which).' : '.'),
      maxWidth,
    ),
  ];
}

/**
 * MODEL SIZE: one row per model, its notes wrapped onto rows of their own.
 * Model names are never cut (a cut name could make two models read as one).
 * To fit, the notes first wrap narrower (down to MIN_NOTE_WIDTH), then the
 * least important columns go, notes first, then source, parity and vs fp32;
 * the note under the table names what went (dropToFit, fitNote).
 */
export function modelSizeTable(run: RunRecord, minWidth: number, maxWidth: number, color: boolean): string[] {
  const variants = hasVariants(run);
  type Model = RunRecord['models'][number];
  type SizeColumn = Column & { readonly dropOrder: number; readonly value: (m: Model) => TableCell };
  const all: SizeColumn[] = [
    { header: 'model', align: 'left', whole: true, dropOrder: 0, value: (m) => m.name },
    { header: 'size on disk', align: 'right', dropOrder: 0, value: (m) => sizeText(m) },
    ...(variants
      ? [
          { header: 'vs fp32', align: 'right', dropOrder: 4, value: (m: Model) => sizeVsFp32(run, m) } satisfies SizeColumn,
          { header: 'parity vs fp32 (onnx-cpu)', align: 'left', dropOrder: 3, value: (m: Model) => parityText(m) } satisfies SizeColumn,
        ]
      : []),
    { header: 'source', align: 'left', dropOrder: 2, value: (m) => m.source },
    // Wrapped here to the room the others leave, so no caveat is ever cut short; whole, so the table never cuts it again.
    { header: 'notes', align: 'left', whole: true, dropOrder: 1, value: () => '' },
  ];
  const fit = dropToFit(all, maxWidth, (columns, cutTo) => {
    const others = columns.filter((c) => c.header !== 'notes');
    const withNotes = others.length < columns.length;
    const natural = others.reduce((sum, c) => sum + Math.max(c.header.length, ...run.models.map((m) => visibleLength(textOf(c.value(m))))) + 2, 0);
    const noteWidth = Math.max(MIN_NOTE_WIDTH, maxWidth - natural);
    const rows: TableRow[] = run.models.flatMap((m) => {
      const notes = withNotes ? (m.notes.length > 0 ? m.notes.flatMap((n) => wrap(n, noteWidth)) : ['–']) : [''];
      return notes.map((note, i) => ({
        cells: [...others.map((c) => (i === 0 ? c.value(m) : '')), ...(withNotes ? [{ text: note, style: 'yellow' } satisfies TableCell] : [])],
      }));
    });
    return renderTable({ title: 'MODEL SIZE', columns: [...others, ...(withNotes ? columns.filter((c) => c.header === 'notes') : [])], rows, color, minWidth, ...(cutTo !== undefined ? { maxWidth: cutTo } : {}) });
  });
  return [...fit.lines, ...fitNote(fit, maxWidth)];
}

/** The narrowest the MODEL SIZE notes wrap to before the column is dropped instead. */
const MIN_NOTE_WIDTH = 20;

function textOf(cell: TableCell): string {
  return typeof cell === 'string' ? cell : cell.text;
}

