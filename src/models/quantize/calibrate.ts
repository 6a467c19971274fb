/**
 * Activation ranges for static quantization, measured the way onnxruntime's
 * calibraters do: the fp32 graph gets every linear layer's activation input
 * as an extra output, the calibration rows stream through it on onnx-cpu,
 * and each activation's values are reduced to a range.
 *
 * - `minmax` (the default, onnxruntime's MinMax): the smallest and largest
 *   value seen;
 * - `percentile`: a 2048-bin histogram of |x| (re-binned when a later batch
 *   reaches further), cut where it holds `PERCENTILE`% of the values, so a
 *   few outliers do not stretch the range the other 99.99% share.
 */
import { rm } from 'node:fs/promises';
import type { Engine } from '../../core/engine.js';
import type { TensorMap } from '../../core/tensor.js';
import type { ActivationRange } from './static-qdq.js';
import { DT, writeOnnxModel, type DecodedModel } from '../../core/onnx/onnx-file.js';
import type { CalibrationMethod } from './calibration-methods.js';

/** Share of |x| the percentile method keeps inside the range. */
export const PERCENTILE = 99.99;
const BINS = 2048;

/** Running reduction of one activation. */
class RangeCollector {
  min = Infinity;
  max = -Infinity;
  private hist: Float64Array | null = null;
  private top = 0;

  constructor(private readonly method: CalibrationMethod) {}

  add(values: Float32Array): void {
    let min = this.min;
    let max = this.max;
    for (let i = 0; i < values.length; i++) {
      const v = values[i] as number;
      if (v < min) min = v;
      if (v > max) max = v;
    }
    this.min = min;
    this.max = max;
    if (this.method === 'percentile') this.addHistogram(values, Math.max(Math.abs(min), Math.abs(max)));
  }

  private addHistogram(values: Float32Array, absmax: number): void {
    if (!this.hist || absmax > this.top) {
      const next = new Float64Array(BINS);
      const top = absmax > 0 ? absmax : 1;
      if (this.hist) {
        // Old counts move to the bin holding their bin's centre in the wider range.
        for (let b = 0; b < BINS; b++) {
          const centre = ((b + 0.5) * this.top) / BINS;
          const at = Math.min(BINS - 1, Math.floor((centre / top) * BINS));
          next[at] = (next[at] as number) + (this.hist[b] as number);
        }
      }
      this.hist = next;
      this.top = top;
    }
    const hist = this.hist;
    const scale = BINS / this.top;
    for (let i = 0; i < values.length; i++) {
      const bin = Math.floor(Math.abs(values[i] as number) * scale);
      const at = bin >= BINS ? BINS - 1 : bin;
      hist[at] = (hist[at] as number) + 1;
    }
  }

  range(): ActivationRange {
    if (this.method === 'minmax' || !this.hist) return { min: this.min, max: this.max };
    const total = this.hist.reduce((a, b) => a + b, 0);
    let seen = 0;
    let bin = 0;
    for (; bin < BINS; bin++) {
      seen += this.hist[bin] as number;
      if (seen >= (total * PERCENTILE) / 100) break;
    }
    const threshold = ((bin + 1) * this.top) / BINS;
    return { min: Math.max(this.min, -threshold), max: Math.min(this.max, threshold) };
  }
}

/**
 * Runs `batches` through `source` with `activations` as extra outputs on
 * `engine` and returns each activation's range. `scratch` is a file path
 * for the augmented graph (removed afterwards).
 */
export async function calibrateRanges(
  source: DecodedModel,
  activations: readonly string[],
  batches: AsyncIterable<TensorMap> | Iterable<TensorMap>,
  engine: Engine,
  method: CalibrationMethod,
  scratch: string,
): Promise<{ ranges: Map<string, ActivationRange>; rows: number }> {
  const graph = source.model.graph ?? {};
  const existing = new Set([...(graph.output ?? []), ...(graph.input ?? [])].map((v) => v.name ?? ''));
  const extra = [...new Set(activations)].filter((a) => !existing.has(a));
  const augmented = {
    ...source.model,
    graph: { ...graph, output: [...(graph.output ?? []), ...extra.map((name) => ({ name, type: { tensorType: { elemType: DT.FLOAT } } }))] },
  };
  await writeOnnxModel(augmented, scratch, source.dir);
  const collectors = new Map(activations.map((a) => [a, new RangeCollector(method)]));
  let rows = 0;
  try {
    const session = await engine.open(scratch, { threads: null, precision: 'fp32' });
    try {
      for await (const feeds of batches) {
        const outputs = await session.run(feeds);
        rows += Number(Object.values(feeds)[0]?.dims[0] ?? 0);
        for (const [name, collector] of collectors) {
          const t = outputs[name] ?? feeds[name];
          if (t && t.dtype === 'float32') collector.add(t.data as Float32Array);
        }
      }
    } finally {
      await session.dispose();
    }
  } finally {
    await rm(scratch, { force: true });
    await rm(`${scratch}_data`, { force: true });
  }
  const ranges = new Map<string, ActivationRange>();
  for (const [name, c] of collectors) if (Number.isFinite(c.min) && Number.isFinite(c.max)) ranges.set(name, c.range());
  return { ranges, rows };
}
