/**
 * The toy family's own model format, `toy-json`: a small JSON written from
 * a model's ONNX graph (its inputs and outputs with their shapes), which
 * the toy engine opens. The docs' example of a format a family brings
 * (docs/development.md, "Adding an engine family"): registered in the
 * format table (src/core/model-formats.ts) when the family's module is
 * imported, so `model.modelFile('toy-json')` writes it on first use, in
 * this process, an isolated child or a queue worker alike.
 */
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { defaultCacheRoot } from '../../../src/core/cache-root.js';
import { FormatRefused, registerModelFormat } from '../../../src/core/model-formats.js';
import { readOnnxModel, type OnnxModel } from '../../../src/core/onnx/onnx-decode.js';

export const TOY_FORMAT = 'toy-json';

/** What a toy-json file holds. */
export interface ToyGraph {
  readonly format: typeof TOY_FORMAT;
  /** The ONNX graph it was written from. */
  readonly source: string;
  readonly inputs: readonly { readonly name: string; readonly dims: readonly (number | string | null)[] }[];
  readonly outputs: readonly { readonly name: string; readonly dims: readonly (number | string | null)[] }[];
}

/** Why a graph has no toy form: the toy engine answers each output by its declared shape, so every output must declare one. */
function refusal(model: OnnxModel): string | null {
  const shapeless = model.outputs.find((o) => o.dims === null);
  return shapeless ? `output '${shapeless.name}' declares no shape` : null;
}

/** Writes the toy form of the graph at `onnxPath` into the cache, keyed by the graph's bytes, once. */
async function writeToyGraph(onnxPath: string): Promise<string> {
  const bytes = await readFile(onnxPath);
  const dir = join(defaultCacheRoot(), 'toy-json');
  const file = join(dir, `${createHash('sha256').update(bytes).digest('hex')}.json`);
  if (existsSync(file)) return file;
  const model = await readOnnxModel(onnxPath);
  const refused = refusal(model);
  if (refused !== null) throw new FormatRefused(refused);
  const graph: ToyGraph = {
    format: TOY_FORMAT,
    source: onnxPath,
    inputs: model.inputs.map((v) => ({ name: v.name, dims: v.dims ?? [] })),
    outputs: model.outputs.map((v) => ({ name: v.name, dims: v.dims ?? [] })),
  };
  await mkdir(dir, { recursive: true });
  // Whole or absent: two processes writing one graph each rename a complete file.
  const partial = `${file}.partial-${process.pid}`;
  await writeFile(partial, JSON.stringify(graph));
  await rename(partial, file);
  return file;
}

registerModelFormat({
  id: TOY_FORMAT,
  label: 'toy JSON graph',
  fromOnnx: writeToyGraph,
  refusal: async (model) => refusal(model),
});
