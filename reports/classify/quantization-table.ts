/**
 * The answer to the question inferbench is most often asked, in one table:
 * the same model in fp32 and each precision variant, side by side — size on
 * disk and its ratio to fp32, speed-up over fp32 per engine, batch and
 * sequence length, accuracy against the labels and its drop from fp32, and
 * how often the variant predicts the same class as fp32.
 */
import type { RunRecord } from '../../src/core/results.js';
import { formatBytes } from '../../src/core/units.js';
import { renderTable, type Column, type TableRow } from '../text-table.js';
import { variantComparison } from '../variant-summary.js';

const percent = (v: number | null): string => (v === null ? '–' : `${(v * 100).toFixed(1)}%`);
/** A drop as the signed change of accuracy, variant − fp32: `−1.2 pt` is worse. */
const change = (drop: number | null): string => (drop === null ? '–' : `${drop > 0 ? '−' : drop < 0 ? '+' : '±'}${Math.abs(drop * 100).toFixed(1)} pt`);

/** The QUANTIZATION table, or nothing when the run has no variant with a completed cell. */
export function quantizationTable(run: RunRecord, minWidth: number, color: boolean): string[] {
  const rows = variantComparison(run);
  if (rows.length === 0) return [];
  const withSeq = rows.some((r) => r.sequenceLength !== null);
  const multiModel = new Set(rows.map((r) => r.of)).size > 1;
  // Embedding models: how far the variant's vectors moved from fp32's, as cosine (an argmax over dimensions means nothing).
  const withCosine = rows.some((r) => r.cosine !== null);
  const cos = (v: number | undefined): string => (v === undefined ? '–' : v.toFixed(6));
  const tableRows: TableRow[] = rows.map((r) => ({
    cells: [
      ...(multiModel ? [r.of] : []),
      r.dtype,
      r.engine,
      r.threads === null ? 'default' : String(r.threads),
      String(r.batchSize),
      ...(withSeq ? [r.sequenceLength === null ? '–' : String(r.sequenceLength)] : []),
      formatBytes(r.sizeBytes),
      r.sizeRatio === null ? '–' : `${r.sizeRatio.toFixed(2)}×`,
      r.speedup === null ? '–' : { text: `${r.speedup.toFixed(2)}×`, style: r.speedup >= 1 ? 'green' : 'yellow' },
      percent(r.accuracy),
      r.accuracyDrop === null ? '–' : { text: change(r.accuracyDrop), style: r.accuracyDrop > 0.01 ? 'yellow' : undefined },
      ...(withCosine ? [cos(r.cosine?.min), cos(r.cosine?.mean)] : [percent(r.argmaxAgreement)]),
      r.writtenBy === 'inferbench' ? 'inferbench' : "model's file",
    ],
  }));
  const columns: Column[] = [
    ...(multiModel ? [{ header: 'model', align: 'left' } satisfies Column] : []),
    { header: 'variant', align: 'left' },
    { header: 'engine', align: 'left' },
    { header: 'threads', align: 'right' },
    { header: 'batch', align: 'right' },
    ...(withSeq ? [{ header: 'seq', align: 'right' } satisfies Column] : []),
    { header: 'size', align: 'right' },
    { header: 'size vs fp32', align: 'right' },
    { header: 'speed-up vs fp32', align: 'right' },
    { header: 'accuracy', align: 'right' },
    { header: 'accuracy vs fp32', align: 'right' },
    ...(withCosine
      ? [{ header: 'min cosine vs fp32', align: 'right' } satisfies Column, { header: 'mean cosine vs fp32', align: 'right' } satisfies Column]
      : [{ header: 'argmax = fp32', align: 'right' } satisfies Column]),
    { header: 'quantized by', align: 'left' },
  ];
  const calibration = run.config['calibration'] as { rows: number; method: string } | null | undefined;
  return [
    ...renderTable({ title: 'QUANTIZATION – each variant against fp32', columns, rows: tableRows, color, minWidth }).lines,
    'Speed-up: the fp32 row\'s engine time per batch (mean of round means) ÷ the variant\'s on the same engine, batch, threads and length; none where either cell saw no whole pass. Accuracy vs fp32: the variant\'s accuracy − fp32\'s on the same engine and batch, in points (− is worse).',
    ...(withCosine ? ['cosine vs fp32: the cosine similarity of each parity row\'s embedding in the variant with its fp32 embedding (onnx-cpu), smallest and mean.'] : []),
    'argmax = fp32: rows where the variant predicts fp32\'s class (onnx-cpu, the parity rows). "inferbench": written from onnx/model.onnx (method in MODEL SIZE notes).',
    ...(calibration ? [`q8-static was calibrated on the first ${calibration.rows} dataset rows (${calibration.method}); every cell measured the rows after them.`] : []),
  ];
}
