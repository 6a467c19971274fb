/**
 * The per-cell terminal tables besides the statistics: memory growth with
 * the window and process each figure covers, cold start once per open, and
 * output parity and accuracy with the rows each was computed on. Each reads
 * the rows of views.ts.
 */
import type { RunRecord } from '../../core/results.js';
import { formatBytes, formatDifference, formatDuration, formatPercent } from '../../core/units.js';
import { orderedCells } from '../../../reports/run-summary.js';
import { cellNamer, groupByReason } from '../../../reports/cell-names.js';
import { paint, type TableCell, wrap, wrapHanging } from '../../../reports/text-table.js';
import { type FitColumn, fittedTable, identityColumns } from '../../../reports/fitted-table.js';
import { type BaselineRow, baselineRows, PARITY_MARKER, parityFailures } from '../../../reports/run-views.js';

const dur = (v: number | null): string => (v === null ? '–' : formatDuration(v));
const rowsWord = (n: number): string => `${n} row${n === 1 ? '' : 's'}`;

/** `batch 1, 8` for the batch sizes run before on the same open; `–` for none; `?` when not recorded. */
function ranBeforeText(r: BaselineRow): string {
  if (r.ranBefore === null) return '?';
  return r.ranBefore.length === 0 ? '–' : `batch ${r.ranBefore.join(', ')}`;
}

/** RSS before the timed loop, its growth during it, engine and GPU memory; only when the record has them. */
export function memoryDetailSection(run: RunRecord, width: number, minWidth: number, color: boolean): string[] {
  const rows = baselineRows(run).filter((r) => r.memory !== null);
  if (rows.length === 0) return [];
  const hasEngine = rows.some((r) => r.memory?.engine);
  const hasGpu = rows.some((r) => r.memory?.gpuBytes !== undefined && r.memory?.gpuBytes !== null);
  const hasProcess = rows.some((r) => r.memoryProcess !== null);
  const hasRanBefore = rows.some((r) => r.ranBefore !== null);
  const mem = (f: (m: NonNullable<BaselineRow['memory']>) => string) => (r: BaselineRow) => (r.memory === null ? '' : f(r.memory));
  const columns: FitColumn<BaselineRow>[] = [
    ...identityColumns(run, rows),
    ...(hasProcess ? [{ header: 'process', align: 'left' as const, dropOrder: 0, value: (r: BaselineRow) => r.memoryProcess ?? '?' }] : []),
    ...(hasRanBefore ? [{ header: 'ran before', align: 'left' as const, dropOrder: 0, value: ranBeforeText }] : []),
    { header: 'before loop', align: 'right', dropOrder: 2, value: mem((m) => formatBytes(m.baselineRssBytes)) },
    { header: 'peak', align: 'right', dropOrder: 3, value: mem((m) => formatBytes(m.peakRssBytes)) },
    { header: 'growth', align: 'right', dropOrder: 0, value: mem((m) => `+${formatBytes(m.growthBytes)}`) },
    { header: 'sampled', align: 'right', dropOrder: 1, value: mem((m) => (m.peakSource === 'kernel' ? 'kernel peak' : `${Math.round(m.sampleHz)} Hz`)) },
    ...(hasEngine
      ? [
          { header: 'tensors', align: 'right' as const, dropOrder: 4, value: mem((m) => (m.engine ? String(m.engine.numTensors) : '–')) },
          { header: 'engine bytes', align: 'right' as const, dropOrder: 0, value: mem((m) => (m.engine ? formatBytes(m.engine.numBytes) : '–')) },
        ]
      : []),
    ...(hasGpu
      ? [{ header: 'GPU', align: 'right' as const, dropOrder: 0, value: mem((m) => (m.gpuBytes === null || m.gpuBytes === undefined ? '–' : formatBytes(m.gpuBytes))) }]
      : []),
  ];
  const lines = fittedTable({ title: 'MEMORY – GROWTH (timed loop)', columns, rows, group: (r) => `${r.model}\u0000${r.batchSize}`, width, minWidth, color });
  return [
    ...lines,
    ...wrap(
      'before loop: RSS once the model is opened and this batch size\'s warm pass ran, just before the timed loop' +
        (hasRanBefore ? ', including what the batch sizes under "ran before" allocated earlier on the same open in the same process' : '') +
        '; growth: peak RSS during the timed loop minus that' +
        (hasProcess ? '; process: isolated (a fresh child process per open), in-process (the measuring process, beside every other engine: --no-isolate, or the Benchmark API\'s default) or browser renderer (the Chromium renderer that ran the page, GPU process not included)' : '') +
        (hasEngine ? '; tensors and engine bytes: the engine\'s own count (tfjs tf.memory())' : '') +
        (hasGpu ? '; GPU: this process\'s peak GPU memory from nvidia-smi' : '') +
        '.',
      width,
    ),
  ];
}

/**
 * Cold start once per open: the batch size measured first after an open gets
 * its open (in parts), its cold first batch and its first pass; later batch
 * sizes on the same open get their first batch as "engine warm".
 */
export function coldStartSection(run: RunRecord, width: number, minWidth: number, color: boolean): string[] {
  const openOf = (r: BaselineRow): string => `${r.model}\u0000${r.key.host}\u0000${r.sequenceLength}\u0000${r.engine}\u0000${r.requestedThreads}`;
  const completed = baselineRows(run).filter((r) => r.state === 'completed');
  // Rows of one open together, in the order the open measured its batch sizes.
  const opens = [...new Set(completed.map(openOf))];
  const rows = [...completed].sort((a, b) => opens.indexOf(openOf(a)) - opens.indexOf(openOf(b)) || a.batchSize - b.batchSize);
  if (rows.length === 0) return [];
  const perOpen = rows.some((r) => r.coldAfterOpen !== null);
  // A row carries the open's figures when it was first after the open, or when the record cannot tell (older records).
  const ownsOpen = (r: BaselineRow): boolean => r.coldAfterOpen !== false;
  const onOpen = (f: (r: BaselineRow) => string) => (r: BaselineRow) => (ownsOpen(r) ? f(r) : '');
  const whole = rows.some((r) => r.openIsWhole && ownsOpen(r));
  const columns: FitColumn<BaselineRow>[] = [
    ...identityColumns(run, rows),
    ...(rows.some((r) => r.importMs !== null) ? [{ header: 'import', align: 'right' as const, dropOrder: 3, value: onOpen((r) => dur(r.importMs)) }] : []),
    ...(rows.some((r) => r.placementProbeMs !== null) ? [{ header: 'probe', align: 'right' as const, dropOrder: 4, value: onOpen((r) => dur(r.placementProbeMs)) }] : []),
    { header: 'open', align: 'right', dropOrder: 0, value: onOpen((r) => `${dur(r.openMs)}${r.openIsWhole && perOpen ? '*' : ''}`) },
    ...(rows.some((r) => r.firstBatchMs !== null)
      ? [
          {
            header: perOpen ? 'first batch (cold)' : 'first batch',
            align: 'right' as const,
            dropOrder: 0,
            value: (r: BaselineRow): TableCell => (ownsOpen(r) ? { text: dur(r.firstBatchMs), style: 'bold' } : ''),
          },
        ]
      : []),
    ...(perOpen ? [{ header: 'first batch at this size (engine warm)', align: 'right' as const, dropOrder: 0, value: (r: BaselineRow) => (ownsOpen(r) ? '' : dur(r.firstBatchMs)) }] : []),
    ...(rows.some((r) => r.firstPassMs !== null) ? [{ header: 'first pass', align: 'right' as const, dropOrder: 5, value: (r: BaselineRow) => dur(r.firstPassMs) }] : []),
    { header: 'warmup', align: 'right', dropOrder: 2, value: (r) => (r.warmupBatches === null ? '–' : `${r.warmupBatches} batches`) },
    ...(rows.some((r) => r.warmupMeanMs !== null) ? [{ header: 'warmup mean', align: 'right' as const, dropOrder: 1, value: (r: BaselineRow) => dur(r.warmupMeanMs) }] : []),
    { header: 'steady mean', align: 'right', dropOrder: 0, value: (r) => dur(r.meanMs) },
  ];
  const note = perOpen
    ? 'Each open (a fresh process per round when isolated) measures its batch sizes one after another; its figures are shown once, on the batch size measured first after it (first round). ' +
      'open: the session create alone; import: the engine\'s package import and probe (near 0 when this process had imported it already); ' +
      'probe: the untimed placement-profiling session and its dummy run (onnxruntime-node, transformers.js); first batch (cold): the first run after the open; ' +
      'first batch at this size (engine warm): the first batch at a later batch size on the same opened engine; first pass: the untimed warm pass over every row at this batch size (first round). None is in the statistics above.' +
      (whole ? ' open*: the whole open, import and probe included (the engine did not report its parts).' : '')
    : rows.some((r) => r.firstPassMs !== null)
      ? 'open: model into the engine; first batch: the first run at this batch size on its open (cold only for the first batch size measured after the open); first pass: the untimed warm pass over every row, of the first round; none is in the statistics above.'
      : 'open: model into the engine; first batch: the first run at this batch size on its open, before warmup; neither is in the statistics above.';
  return [...fittedTable({ title: 'COLD START (per open)', columns, rows, group: openOf, width, minWidth, color }), ...wrap(note, width)];
}

/** A cosine similarity with enough digits to tell 0.99999 from 0.9999. */
export function formatCosine(c: number): string {
  return Number.isFinite(c) ? c.toFixed(6) : String(c);
}

/** Output parity against the reference engine and accuracy against labels, with the rows each covers; only when the record has them. */
export function paritySection(run: RunRecord, width: number, minWidth: number, color: boolean): string[] {
  const rows = baselineRows(run).filter((r) => r.state === 'completed' && (r.parity !== null || r.accuracy !== null || r.accuracyNote !== null || r.parityUnavailable !== null));
  if (rows.length === 0) return [];
  const references = new Set(rows.flatMap((r) => (r.parity === null ? [] : [r.parity.reference])));
  const par = (f: (p: NonNullable<BaselineRow['parity']>) => string) => (r: BaselineRow) => (r.parity === null ? '–' : f(r.parity));
  const accuracy = (r: BaselineRow): string => {
    if (r.accuracyNote !== null) return r.accuracyNote;
    if (r.accuracy === null) return '–';
    return r.accuracyRows ? `${formatPercent(r.accuracy)} (${rowsWord(r.accuracyRows.counted)})` : formatPercent(r.accuracy);
  };
  const columns: FitColumn<BaselineRow>[] = [
    ...identityColumns(run, rows),
    { header: 'reference', align: 'left', dropOrder: 1, value: par((p) => p.reference) },
    { header: 'max |diff|', align: 'right', dropOrder: 3, value: par((p) => formatDifference(p.maxAbsDiff)) },
    { header: 'tolerance', align: 'right', dropOrder: 2, value: par((p) => formatDifference(p.tolerance)) },
    // Embeddings are judged by cosine (1 − tolerance); an argmax over a vector's dimensions means nothing.
    ...(rows.some((r) => r.parity?.cosine !== undefined)
      ? [{ header: 'min cosine', align: 'right' as const, dropOrder: 0, value: par((p) => (p.cosine ? `${formatCosine(p.cosine.min)} (${rowsWord(p.rows)})` : '–')) }]
      : []),
    ...(rows.some((r) => r.parity !== null && r.parity.cosine === undefined)
      ? [{ header: 'argmax agree', align: 'right' as const, dropOrder: 0, value: par((p) => (p.cosine ? '–' : `${formatPercent(p.argmaxAgreement)} (${rowsWord(p.rows)})`)) }]
      : []),
    { header: 'accuracy', align: 'right', dropOrder: 0, value: accuracy },
    {
      header: 'parity',
      align: 'left',
      dropOrder: 0,
      value: (r) =>
        r.parityOk === null
          ? r.parityUnavailable !== null
            ? { text: 'unavailable', style: 'yellow' }
            : { text: references.has(r.engine) || r.engine === (run.config['parity'] as { reference?: unknown } | undefined)?.reference ? 'reference' : 'not checked', style: 'dim' }
          : r.parityOk ? { text: '✓ ok', style: 'green' } : { text: PARITY_MARKER, style: 'red' },
    },
  ];
  const lines = fittedTable({ title: 'OUTPUT PARITY & ACCURACY', columns, rows, group: (r) => `${r.model}\u0000${r.batchSize}`, width, minWidth, color });
  lines.push(
    ...wrap(
      (rows.some((r) => r.parity?.cosine !== undefined) ? 'min cosine: the smallest cosine similarity between a row\'s embedding and the reference\'s, over the first rows of each engine\'s warm pass; below 1 − tolerance is ✗ PARITY. ' : '') +
      'argmax agree: rows whose predicted class equals the reference\'s, over the first rows of each engine\'s warm pass (both engines\' outputs, up to the parity row cap). ' +
        'accuracy: predicted class against the label over every row of one whole pass (the rows counted are those with a label), so it is over the same rows on every engine; "n/a (saw k of N rows)" when the engine did not see them all.',
      width,
    ),
  );
  // One line per distinct reason, naming the cells it applies to, so a missing reference is impossible to miss.
  const name = cellNamer(run);
  const unavailable = orderedCells(run).filter((c) => c.state === 'completed' && (c.parityUnavailable ?? null) !== null);
  for (const { reason, cells } of groupByReason(unavailable, (c) => (c.state === 'completed' ? (c.parityUnavailable ?? '') : ''), name)) lines.push(...wrapHanging(`parity unavailable (${cells.join('; ')}): ${reason}`, width).map((l) => paint(l, 'yellow', color)));
  return lines;
}

/**
 * One red warning per cell whose outputs differ from the reference beyond
 * tolerance, naming engine, batch, difference and tolerance: a fast engine
 * that returns wrong answers must be impossible to miss.
 */
export function parityWarningLines(run: RunRecord, width: number, color: boolean): string[] {
  const name = cellNamer(run);
  return parityFailures(run).flatMap((cell) => {
    const p = cell.parity as NonNullable<typeof cell.parity>;
    if (p.cosine) {
      const line = `warning: ${PARITY_MARKER} ${name(cell)}: embeddings differ from ${p.reference}: smallest cosine ${formatCosine(p.cosine.min)} over ${p.rows} rows, below ${formatCosine(1 - p.tolerance)} (1 − tolerance ${formatDifference(p.tolerance)}); its speed is for wrong vectors`;
      return wrapHanging(line, width).map((l) => paint(l, 'red', color));
    }
    const text =
      `warning: ${PARITY_MARKER} ${name(cell)}: outputs differ from ${p.reference} by ` +
      `${formatDifference(p.maxAbsDiff)}, over the tolerance ${formatDifference(p.tolerance)} ` +
      `(argmax agrees on ${formatPercent(p.argmaxAgreement)} of ${p.rows} rows); its speed is for wrong answers`;
    return wrapHanging(text, width).map((l) => paint(l, 'red', color));
  });
}
