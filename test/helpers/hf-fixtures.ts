/**
 * The committed Hugging Face export fixtures (tools/export-hf-fixtures.py):
 * tiny random-init models in Hub layout, each with the exact feeds and the
 * outputs PyTorch computed for them.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { packageRoot } from '../../src/core/package-info.js';
import { hostTensor, type HostTensor, type TensorMap } from '../../src/core/tensor.js';

interface JsonTensor {
  readonly dtype: 'int64' | 'float32';
  readonly dims: number[];
  readonly data: number[];
}

/** One fixture folder and what its reference.json records. */
export interface HfFixture {
  readonly arch: string;
  readonly dir: string;
  readonly onnxPath: string;
  readonly opset: number;
  /** Sentences for classifiers; prefixes and step text for the decoder with past. */
  readonly sentences: readonly string[] | { prefixes: string[]; step: string };
  readonly feeds: TensorMap;
  /** PyTorch outputs by graph output name. */
  readonly expected: Readonly<Record<string, { dims: number[]; data: number[] }>>;
  readonly ops: Readonly<Record<string, number>>;
}

/** Folder holding every fixture (under the source tree; the build does not copy it). */
export const HF_FIXTURES_DIR = join(packageRoot(), 'test', 'data', 'hf');

function toHost(t: JsonTensor): HostTensor {
  return t.dtype === 'int64'
    ? hostTensor('int64', t.dims, BigInt64Array.from(t.data, (v) => BigInt(v)))
    : hostTensor('float32', t.dims, Float32Array.from(t.data));
}

/** Reads one fixture by architecture name. */
export function readHfFixture(arch: string): HfFixture {
  const dir = join(HF_FIXTURES_DIR, arch);
  const ref = JSON.parse(readFileSync(join(dir, 'reference.json'), 'utf8')) as {
    opset: number;
    sentences: HfFixture['sentences'];
    inputs: Record<string, JsonTensor>;
    outputs: Record<string, JsonTensor>;
    ops: Record<string, number>;
  };
  const feeds: TensorMap = {};
  for (const [name, t] of Object.entries(ref.inputs)) feeds[name] = toHost(t);
  const expected: Record<string, { dims: number[]; data: number[] }> = {};
  for (const [name, t] of Object.entries(ref.outputs)) expected[name] = { dims: t.dims, data: t.data };
  return { arch, dir, onnxPath: join(dir, 'onnx', 'model.onnx'), opset: ref.opset, sentences: ref.sentences, feeds, expected, ops: ref.ops };
}

/** Every fixture's architecture name, sorted. */
export function hfFixtureArchs(): string[] {
  return readdirSync(HF_FIXTURES_DIR, { withFileTypes: true })
    .filter((e) => e.isDirectory())
    .map((e) => e.name)
    .sort();
}

/** Largest absolute difference between computed outputs and the fixture's PyTorch outputs; throws on a missing output or a dims mismatch. */
export function maxDiffFromReference(fixture: HfFixture, outputs: TensorMap): number {
  let max = 0;
  for (const [name, want] of Object.entries(fixture.expected)) {
    const got = outputs[name];
    if (!got) throw new Error(`${fixture.arch}: output ${name} is missing`);
    if (got.dims.join(',') !== want.dims.join(',')) throw new Error(`${fixture.arch}: output ${name} has dims [${got.dims.join(',')}], PyTorch gives [${want.dims.join(',')}]`);
    for (let i = 0; i < want.data.length; i++) {
      const d = Math.abs(Number(got.data[i]) - (want.data[i] as number));
      if (!(d <= max)) max = Number.isNaN(d) ? Infinity : d;
    }
  }
  return max;
}

/** Largest |a - b| over every output of `reference`; a missing output or other dims throws. */
export function maxDiffBetween(reference: TensorMap, candidate: TensorMap): number {
  let max = 0;
  for (const [name, want] of Object.entries(reference)) {
    const got = candidate[name];
    if (!got) throw new Error(`output ${name} is missing (got ${Object.keys(candidate).join(', ')})`);
    if (got.dims.join(',') !== want.dims.join(',')) throw new Error(`output ${name} has dims [${got.dims.join(',')}], the reference [${want.dims.join(',')}]`);
    for (let i = 0; i < want.data.length; i++) {
      const d = Math.abs(Number(got.data[i]) - Number(want.data[i]));
      if (!(d <= max)) max = Number.isNaN(d) ? Infinity : d;
    }
  }
  return max;
}

/** The first `rows` rows of each fixture feed, cut to `seq` tokens: another input-dims signature of the same graph. */
export function cutFeeds(feeds: TensorMap, rows: number, seq: number): TensorMap {
  const out: TensorMap = {};
  for (const [name, t] of Object.entries(feeds)) {
    const width = t.dims[1] as number;
    const data = new BigInt64Array(rows * seq);
    for (let r = 0; r < rows; r++) data.set((t.data as BigInt64Array).subarray(r * width, r * width + seq), r * seq);
    out[name] = hostTensor('int64', [rows, seq], data);
  }
  return out;
}

