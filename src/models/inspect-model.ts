import { existsSync, statSync } from 'node:fs';
import { notRegularFile } from '../core/regular-file.js';
import { join, resolve } from 'node:path';
import { defaultRegistry } from '../../engines/registry.js';
import { unavailableText, type EngineRegistry } from '../core/engine-registry.js';
import { UserError } from '../core/errors.js';

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
  /** For tfjs engines: op types the translator lacks, each with its count (empty when every op is translated). */
  readonly unsupportedOps?: readonly string[];
}

/** Everything `inferbench inspect` prints about a model. */
export interface ModelInspection {
  readonly path: string;
  readonly sizeBytes: number;
  readonly irVersion: number;
  /** Default-domain (ai.onnx) opset. */
  readonly opset: number;
  readonly producer: string;
  readonly inputs: readonly InspectedValue[];
  readonly outputs: readonly InspectedValue[];
  readonly nodeCount: number;
  /** Op types with counts, most used first; non-default domains are prefixed (com.microsoft.FastGelu). */
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
  if (!found) {
    throw new UserError(
      `model folder ${path} has no ONNX file (looked for ${candidates.join(' and ')})`,
      'export the model in Hugging Face layout, e.g. `optimum-cli export onnx --model <id> <dir>` and move model.onnx into <dir>/onnx/',
    );
  }
  const foundInfo = statSync(found);
  if (!foundInfo.isFile()) throw notRegularFile(found, foundInfo);
  return found;
}

/**
 * Reads a model's graph (ops, opset, inputs, outputs) and says for every
 * registered engine whether it can run it here: ONNX Runtime engines by
 * their availability, tfjs engines also by the translator's op coverage.
 * Loads no weights into any engine.
 */
export async function inspectModel(pathOrDir: string, registry: EngineRegistry = defaultRegistry): Promise<ModelInspection> {
  const path = resolveOnnxPath(pathOrDir);
  const [{ readOnnxModel, listOps }, { tfjsCoverage }] = await Promise.all([
    import('../../engines/tfjs/onnx-model.js'),
    import('../../engines/tfjs/op-table.js'),
  ]);
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
  const engines: EngineVerdict[] = [];
  for (const status of await registry.statusAll()) {
    const tfjs = status.engine?.target.family === 'tfjs';
    const base = tfjs ? { unsupportedOps: coverage.unsupported.map((u) => `${u.op} ×${u.count}`) } : {};
    if (!status.availability.available) {
      engines.push({ engine: status.id, canRun: false, reason: unavailableText(status), ...base });
    } else if (tfjs && tfjsProblems.length > 0) {
      engines.push({ engine: status.id, canRun: false, reason: tfjsProblems.join('; '), ...base });
    } else {
      engines.push({ engine: status.id, canRun: true, reason: null, ...base });
    }
  }
  return {
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
