import { existsSync, statSync } from 'node:fs';
import { notRegularFile } from '../core/regular-file.js';
import { join, resolve } from 'node:path';
import type { ModelFormat } from '../core/engine.js';
import { EngineRegistry, unavailableText, type EngineStatus } from '../core/engine-registry.js';
import { UserError } from '../core/errors.js';
import { aFormat, formatLabel, modelFormat } from '../core/model-formats.js';
import { nativeFormatsIn, readNativeSignature } from './native-signature.js';
// The tfjs formats' entries in the format table: their labels and the exporter's refusal.
import './tf-export/tf-formats.js';
import { standaloneRegistry } from './standalone-registry.js';

/** A graph input or output as `inspect` reports it. */
export interface InspectedValue {
  readonly name: string;
  readonly dtype: string;
  /** Axis sizes, symbolic names for dynamic axes, or null when the file declares no shape. */
  readonly dims: readonly (number | string | null)[] | null;
}

/** Whether one engine can run the model here, and if not, why. */
export interface EngineVerdict {
  readonly engine: string;
  readonly canRun: boolean;
  /** Null when it can run; otherwise the reason (engine unavailable, or ops the tfjs translator lacks). */
  readonly reason: string | null;
  /** For tfjs translator engines: op types the translator lacks, each with its count (empty when every op is translated). */
  readonly unsupportedOps?: readonly string[];
}

/** Everything `inferbench inspect` prints about a model. */
export interface ModelInspection {
  /** The graph file read: an ONNX file, a tfjs GraphModel's model.json or a SavedModel's saved_model.pb. */
  readonly format: ModelFormat;
  readonly path: string;
  readonly sizeBytes: number;
  /** ONNX IR version; null for the tfjs formats. */
  readonly irVersion: number | null;
  /** Default-domain (ai.onnx) opset; null for the tfjs formats. */
  readonly opset: number | null;
  readonly producer: string;
  readonly inputs: readonly InspectedValue[];
  readonly outputs: readonly InspectedValue[];
  readonly nodeCount: number;
  /** Op types with counts, most used first; non-default domains are prefixed (com.microsoft.FastGelu); TF op names for the tfjs formats. */
  readonly ops: readonly { readonly op: string; readonly count: number }[];
  readonly engines: readonly EngineVerdict[];
}

/**
 * The ONNX file of `pathOrDir`: the file itself, or a Hugging Face folder's
 * onnx/model.onnx (or model.onnx at its top). A missing path is a user error
 * that names what was looked for.
 */
export function resolveOnnxPath(pathOrDir: string): string {
  const path = resolve(pathOrDir);
  return findOnnx(path) ?? noOnnx(path);
}

function noOnnx(path: string): never {
  throw new UserError(
    `model folder ${path} has no ONNX file (looked for ${join(path, 'onnx', 'model.onnx')} and ${join(path, 'model.onnx')})`,
    'export the model in Hugging Face layout, e.g. `optimum-cli export onnx --model <id> <dir>` and move model.onnx into <dir>/onnx/',
  );
}

/** The ONNX file of a path (see resolveOnnxPath), or null for a folder without one. */
function findOnnx(path: string): string | null {
  if (!existsSync(path)) {
    throw new UserError(`model ${path} does not exist`, 'pass --model a Hugging Face folder with onnx/model.onnx, or an .onnx file');
  }
  const info = statSync(path);
  if (!info.isDirectory()) {
    // Checked here, before the reader (which is bundled for the browser page too) opens it: a FIFO would block for ever.
    if (!info.isFile()) throw notRegularFile(path, info);
    return path;
  }
  const candidates = [join(path, 'onnx', 'model.onnx'), join(path, 'model.onnx')];
  const found = candidates.find((c) => existsSync(c));
  if (found === undefined) return null;
  const foundInfo = statSync(found);
  if (!foundInfo.isFile()) throw notRegularFile(found, foundInfo);
  return found;
}

/** The verdict for one engine: unavailable here, refused by `problem` (null: it can run), with extra fields. */
function verdict(status: EngineStatus, problem: string | null, extra: Partial<EngineVerdict> = {}): EngineVerdict {
  if (!status.availability.available) return { engine: status.id, canRun: false, reason: unavailableText(status), ...extra };
  return { engine: status.id, canRun: problem === null, reason: problem, ...extra };
}

/**
 * A folder with a tfjs GraphModel or a SavedModel and no ONNX graph: its
 * signature and TF ops, and which engines run that format (the others need
 * an ONNX graph, or the other format).
 */
async function inspectNative(path: string, registry: EngineRegistry, engineIds: readonly string[]): Promise<ModelInspection> {
  const formats = nativeFormatsIn(path);
  const first = formats[0];
  if (first === undefined) noOnnx(path);
  const sig = await readNativeSignature(path, first);
  const engines: EngineVerdict[] = [];
  for (const status of await registry.statusAll(engineIds)) {
    const format = status.engine?.format ?? 'onnx';
    const problem = formats.includes(format as never) ? null : `needs ${aFormat(format)}; ${path} holds a ${formats.map((f) => formatLabel(f)).join(' and a ')}`;
    engines.push(verdict(status, problem));
  }
  const value = (v: (typeof sig.inputs)[number]): InspectedValue => ({ name: v.name, dtype: v.dtype, dims: v.shape.map((d) => (typeof d === 'number' ? d : d)) });
  return {
    format: first,
    path: sig.file,
    sizeBytes: statSync(sig.file).size,
    irVersion: null,
    opset: null,
    producer: sig.producer,
    inputs: sig.inputs.map(value),
    outputs: sig.outputs.map(value),
    nodeCount: sig.nodeCount,
    ops: sig.ops,
    engines,
  };
}

/** Which engines `inspectModel` judges, and in which registry. */
export interface InspectOptions {
  readonly registry?: EngineRegistry;
  /**
   * Registered ids to judge (already checked, e.g. by `parseNames`), listed
   * in table order; default every registered engine. Only these are
   * probed: probing all of them starts Chromium and a libtensorflow child,
   * seconds of CPU a question about one engine does not need.
   */
  readonly engines?: readonly string[];
}

/**
 * Reads a model's graph (ops, opset, inputs, outputs) and says for every
 * registered engine (or those `options.engines` names) whether it can run
 * it here: ONNX Runtime engines by their availability, tfjs engines also by
 * the translator's op coverage. Opens no weights on any engine.
 */
export async function inspectModel(pathOrDir: string, options: InspectOptions | EngineRegistry = {}): Promise<ModelInspection> {
  // A registry alone is the form this exported function had before `engines` existed.
  const { registry = standaloneRegistry(), engines: asked } = options instanceof EngineRegistry ? { registry: options } : options;
  const engineIds = asked ? registry.ids().filter((id) => asked.includes(id)) : registry.listedIds();
  const resolved = resolve(pathOrDir);
  if (!existsSync(resolved)) resolveOnnxPath(resolved);
  const onnx = findOnnx(resolved);
  if (onnx === null) return inspectNative(resolved, registry, engineIds);
  const path = onnx;
  const [{ readOnnxModel, listOps }, { tfjsCoverage }] = await Promise.all([import('../core/onnx/onnx-decode.js'), import('../../engines/tfjs/op-table.js')]);
  let model: Awaited<ReturnType<typeof readOnnxModel>>;
  try {
    model = await readOnnxModel(path);
  } catch (err) {
    throw new UserError(`cannot read ${path} as an ONNX model: ${(err as Error).message}`, 'check that the file is a complete ONNX export (re-export it if it was truncated)');
  }
  const coverage = tfjsCoverage(model);
  const tfjsProblems = [
    ...coverage.unsupported.map((u) => `unsupported ONNX op ${u.op}${u.count > 1 ? ` ×${u.count}` : ''} (node ${u.firstNode})`),
    ...coverage.dtypeProblems,
  ];
  // An engine of a format written from the graph runs that writer's output: the writer's own refusal is its verdict (asked once per format).
  const exportProblems = new Map<ModelFormat, Promise<string | null>>();
  const exportProblem = (format: ModelFormat): Promise<string | null> => {
    let known = exportProblems.get(format);
    if (known === undefined) {
      const refusal = modelFormat(format)?.refusal;
      known = refusal ? refusal(model) : Promise.resolve(null);
      exportProblems.set(format, known);
    }
    return known;
  };
  const engines: EngineVerdict[] = [];
  for (const status of await registry.statusAll(engineIds)) {
    const format = status.engine?.format ?? 'onnx';
    if (status.engine?.onnxTranslator === true) engines.push(verdict(status, tfjsProblems.length > 0 ? tfjsProblems.join('; ') : null, { unsupportedOps: coverage.unsupported.map((u) => `${u.op} ×${u.count}`) }));
    else {
      const exported = await exportProblem(format);
      engines.push(verdict(status, exported ? `cannot be exported as ${aFormat(format)}: ${exported}` : null));
    }
  }
  return {
    format: 'onnx',
    path,
    sizeBytes: statSync(path).size,
    irVersion: model.irVersion,
    opset: model.opset,
    producer: model.producer,
    inputs: model.inputs.map((v) => ({ name: v.name, dtype: v.dtype, dims: v.dims })),
    outputs: model.outputs.map((v) => ({ name: v.name, dtype: v.dtype, dims: v.dims })),
    nodeCount: model.nodes.length,
    ops: listOps(model).map((o) => ({ op: o.domain && o.domain !== 'ai.onnx' ? `${o.domain}.${o.opType}` : o.opType, count: o.count })),
    engines,
  };
}
