/**
 * The answer to the question inferbench is most often asked, in one table:
 * the same model in fp32 and each precision variant, side by side — size on
 * disk and its ratio to fp32, speed-up over fp32 per engine, batch and
 * sequence length, accuracy against the labels and its drop from fp32, and
 * how often the variant predicts the same class as fp32.
 */
import type { RunRecord } from '../../core/results.js';
import { formatBytes } from '../../core/units.js';
import { fittedTable, type FitColumn } from '../../../reports/fitted-table.js';
import { variantComparison } from '../../../reports/variant-summary.js';

const percent = (v: number | null): string => (v === null ? '–' : `${(v * 100).toFixed(1)}%`);
/** A drop as the signed change of accuracy, variant − fp32: `−1.2 pt` is worse. */
const change = (drop: number | null): string => (drop === null ? '–' : `${drop > 0 ? '−' : drop < 0 ? '+' : '±'}${Math.abs(drop * 100).toFixed(1)} pt`);

type VariantRow = ReturnType<typeof variantComparison>[number];

/**
 * The QUANTIZATION table, or nothing when the run has no variant with a
 * completed cell. It drops its least needed columns (who quantized, sizes,
 * threads) until it fits `maxWidth`, and says which, like the per-cell tables.
 */
export function quantizationTable(run: RunRecord, minWidth: number, maxWidth: number, color: boolean): string[] {
  const rows = variantComparison(run);
  if (rows.length === 0) return [];
  const withSeq = rows.some((r) => r.sequenceLength !== null);
  const multiModel = new Set(rows.map((r) => r.of)).size > 1;
  // Embedding models: how far the variant's vectors moved from fp32's, as cosine (an argmax over dimensions means nothing).
  const withCosine = rows.some((r) => r.cosine !== null);
  // Accuracy needs labels; an embedding run without any has none to show, so its columns would only hold dashes.
  const withAccuracy = !withCosine || rows.some((r) => r.accuracy !== null);
  const cos = (v: number | undefined): string => (v === undefined ? '–' : v.toFixed(6));
  const columns: FitColumn<VariantRow>[] = [
    ...(multiModel ? [{ header: 'model', align: 'left', dropOrder: 0, value: (r) => r.of } satisfies FitColumn<VariantRow>] : []),
    { header: 'variant', align: 'left', dropOrder: 0, value: (r) => r.dtype },
    { header: 'engine', align: 'left', dropOrder: 0, value: (r) => r.engine },
    { header: 'threads', align: 'right', dropOrder: 3, value: (r) => (r.threads === null ? 'default' : String(r.threads)) },
    { header: 'batch', align: 'right', dropOrder: 0, value: (r) => String(r.batchSize) },
    ...(withSeq ? [{ header: 'seq', align: 'right', dropOrder: 0, value: (r) => (r.sequenceLength === null ? '–' : String(r.sequenceLength)) } satisfies FitColumn<VariantRow>] : []),
    { header: 'size', align: 'right', dropOrder: 2, value: (r) => formatBytes(r.sizeBytes) },
    { header: 'size vs fp32', align: 'right', dropOrder: 4, value: (r) => (r.sizeRatio === null ? '–' : `${r.sizeRatio.toFixed(2)}×`) },
    { header: 'speed-up vs fp32', align: 'right', dropOrder: 0, value: (r) => (r.speedup === null ? '–' : { text: `${r.speedup.toFixed(2)}×`, style: r.speedup >= 1 ? 'green' : 'yellow' }) },
    ...(withAccuracy
      ? [
          { header: 'accuracy', align: 'right', dropOrder: 5, value: (r) => percent(r.accuracy) } satisfies FitColumn<VariantRow>,
          { header: 'accuracy vs fp32', align: 'right', dropOrder: 0, value: (r) => (r.accuracyDrop === null ? '–' : { text: change(r.accuracyDrop), style: r.accuracyDrop > 0.01 ? 'yellow' : undefined }) } satisfies FitColumn<VariantRow>,
        ]
      : []),
    ...(withCosine
      ? [
          { header: 'min cos vs fp32', align: 'right', dropOrder: 0, value: (r) => cos(r.cosine?.min) } satisfies FitColumn<VariantRow>,
          { header: 'mean cos vs fp32', align: 'right', dropOrder: 0, value: (r) => cos(r.cosine?.mean) } satisfies FitColumn<VariantRow>,
        ]
      : [{ header: 'argmax = fp32', align: 'right', dropOrder: 0, value: (r) => percent(r.argmaxAgreement) } satisfies FitColumn<VariantRow>]),
    { header: 'quantized by', align: 'left', dropOrder: 1, value: (r) => (r.writtenBy === 'inferbench' ? 'inferbench' : "model's file") },
  ];
  const calibration = run.config['calibration'] as { rows: number; method: string } | null | undefined;
  return [
    ...fittedTable({ title: 'QUANTIZATION – each variant against fp32', columns, rows, width: maxWidth, minWidth, color }),
    'Speed-up: the fp32 row\'s engine time per batch (mean of round means) ÷ the variant\'s on the same engine, batch, threads and length; none where either cell saw no whole pass.' +
      (withAccuracy ? ' Accuracy vs fp32: the variant\'s accuracy − fp32\'s on the same engine and batch, in points (− is worse).' : ''),
    ...(withCosine ? ['cos vs fp32: the cosine similarity of each parity row\'s embedding in the variant with its fp32 embedding (onnx-cpu), smallest and mean.'] : []),
    ...(withCosine ? [] : ['argmax = fp32: rows where the variant predicts fp32\'s class (onnx-cpu, the parity rows).']),
    '"inferbench": written from onnx/model.onnx (method in MODEL SIZE notes).',
    ...(calibration ? [`q8-static was calibrated on the first ${calibration.rows} dataset rows (${calibration.method}); every cell measured the rows after them.`] : []),
  ];
}
