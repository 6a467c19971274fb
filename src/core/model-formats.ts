import type { ModelFormat } from './engine.js';
import type { OnnxModel } from './onnx/onnx-decode.js';

/**
 * The model file formats engines open, each registered once by the code
 * that writes it: the ONNX graph here (every model has one, `onnxPath`),
 * the tfjs GraphModel and TensorFlow SavedModel by inferbench's exporter
 * (src/models/tf-export/tf-formats.ts), a plug-in family's format by its
 * own module. An engine declares which one it opens (`Engine.format`);
 * a model looks the format up here (`BenchmarkModel.modelFile`) instead of
 * switching on its name, so a family with a format of its own touches no
 * file outside its folder. A frozen table, as engine ids are
 * (`registerEngine`).
 */
export interface ModelFormatSpec {
  /** The name engines declare (`Engine.format`): `onnx`, `graph-model`, `saved-model`, or a plug-in's own. */
  readonly id: ModelFormat;
  /** The format as a sentence names it: 'ONNX graph', 'tfjs GraphModel'. */
  readonly label: string;
  /**
   * How a model that brings no file of this format (`nativeModelPath`)
   * gets one: `'itself'`, the ONNX graph is the file; a function, the file
   * written from the ONNX graph (once: it caches its output and hands the
   * same file back), throwing `FormatRefused` for a graph it cannot write;
   * absent, only a model that brings the file has one.
   */
  readonly fromOnnx?: 'itself' | ((onnxPath: string) => Promise<string>);
  /**
   * Why `fromOnnx` would refuse this graph, found without writing anything
   * (`inferbench inspect` says it for each engine of the format); null when
   * it would write it.
   */
  readonly refusal?: (model: OnnxModel) => Promise<string | null>;
}

/** Thrown by a format's `fromOnnx` for a graph it cannot be written from (an op with no mapping, a quantized graph): the cell is skipped with this reason. */
export class FormatRefused extends Error {
  override readonly name: string = 'FormatRefused';
}

const formats = new Map<ModelFormat, ModelFormatSpec>();

/** Declares a format; a second registration of one name is a bug (two writers of one format), as for engine ids. */
export function registerModelFormat(spec: ModelFormatSpec): void {
  if (formats.has(spec.id)) throw new Error(`model format "${spec.id}" is registered twice`);
  formats.set(spec.id, Object.freeze({ ...spec }));
}

/** The registered format of that name, or undefined (a plug-in's format whose module is not loaded here). */
export function modelFormat(id: ModelFormat): ModelFormatSpec | undefined {
  return formats.get(id);
}

/** `format` as a sentence names it, with its article: 'an ONNX graph', 'a tfjs GraphModel', 'an echo file' for a format nobody registered. */
export function aFormat(id: ModelFormat): string {
  const label = formatLabel(id);
  return `${/^[aeiou]/i.test(label) ? 'an' : 'a'} ${label}`;
}

/** `format` as a sentence names it: its registered label, else `<name> file`. */
export function formatLabel(id: ModelFormat): string {
  return formats.get(id)?.label ?? `${id} file`;
}

/** The ONNX graph: the file every model has (`onnxPath`) and every other format is written from. */
registerModelFormat({ id: 'onnx', label: 'ONNX graph', fromOnnx: 'itself' });
